import Foundation
import Futures

/// `timeout`, `retry`, `delayed`, `deferred` and cancellation.
enum ToolboxChecks {
    struct Point: Sendable {
        let x: Int
        let y: Int
    }

    static func run() {
        Checks.check("timeout fires") {
            let slow = BackgroundFuture { () throws -> Int in
                for _ in 0..<2000 where !Future.isCurrentWorkCancelled { pause(milliseconds: 1) }
                return 1
            }
            let result = slow.timeout(after: .milliseconds(50), cancellingSource: true).result
            guard case .failure(let error) = result, error is FutureTimeoutError else { return false }
            return Checks.eventually { slow.isCancelled }
        }
        Checks.check("timeout does not fire") {
            (try? BackgroundFuture { 3 }.timeout(after: .seconds(30)).result.get()) == 3
        }
        Checks.check("timeout(after:failingWith:)") {
            let never = Promise<Int, Boom>()
            return never.future.timeout(after: .milliseconds(20), failingWith: .other).result == .failure(.other)
        }
        Checks.check("retry until the third attempt") {
            let attempts = Counter()
            let retried = Future<Int, Boom>.retry(attempts: 5, delay: .milliseconds(5), backoff: 2) {
                BackgroundFuture { () throws(Boom) -> Int in
                    if attempts.bump() < 3 { throw .boom }
                    return 11
                }
            }
            return retried.result == .success(11) && attempts.value == 3
        }
        Checks.check("retry gives up") {
            let attempts = Counter()
            let retried = Future<Int, Boom>.retry(attempts: 2) {
                attempts.bump()
                return Future(failure: .boom)
            }
            return retried.result == .failure(.boom) && attempts.value == 2
        }
        Checks.check("delayed") {
            let start = Date()
            let value = Future<Int, Never>(value: 1).delayed(by: .milliseconds(50)).value
            return value == 1 && Date().timeIntervalSince(start) >= 0.045
        }
        Checks.check("deferred members") {
            let point = BackgroundFuture { Point(x: 1, y: 2) }
            return point.deferred.x.value == 1 && point.deferred.y.value == 2
        }
        Checks.check("cancel a running BackgroundFuture and what derives from it") {
            let sawCancel = Counter()
            let started = Counter()
            let work = BackgroundFuture { () throws -> Int in
                started.bump()
                for _ in 0..<5000 {
                    if Future.isCurrentWorkCancelled {
                        sawCancel.bump()
                        break
                    }
                    pause(milliseconds: 1)
                }
                return 1
            }
            let derived = work.map { $0 + 1 }
            guard Checks.eventually({ started.value == 1 }) else { return false }
            let cancelled = work.cancel()
            guard case .failure(let error) = work.result, error is CancellationError else { return false }
            return cancelled && work.isCancelled && derived.isCancelled && !work.cancel()
                && Checks.eventually { sawCancel.value == 1 }
        }
        Checks.check("cancel a LazyFuture before its read: its work never runs") {
            let runs = Counter()
            let lazy = LazyFuture { () throws -> Int in
                runs.bump()
                return 1
            }
            lazy.cancel()
            guard case .failure(let error) = lazy.result, error is CancellationError else { return false }
            return runs.value == 0
        }
        Checks.check("cancel a promise's future") {
            let promise = Promise<Int, any Error>()
            let cancelled = promise.future.cancel()
            return cancelled && !promise.succeed(1) && promise.future.isCancelled
        }
        Checks.check("checkCancellation inside work") {
            let started = Counter()
            let work = BackgroundFuture { () throws -> Int in
                started.bump()
                while true {
                    try Future.checkCancellation()
                    pause(milliseconds: 1)
                }
            }
            guard Checks.eventually({ started.value == 1 }) else { return false }
            work.cancel()
            return work.isCancelled
        }
    }
}
