import Foundation
import Futures

/// Every kind of future: resolved (value, failure, result), background, lazy, promise.
enum KindChecks {
    static func run() {
        Checks.check("Future(value:)") { Future<Int, Never>(value: 1).value == 1 }
        Checks.check("Future(failure:)") {
            Future<Int, Boom>(failure: .boom).result == .failure(.boom)
        }
        Checks.check("Future(result:)") {
            Future<Int, Boom>(result: .success(2)).result == .success(2)
                && Future<Int, Boom>(result: .failure(.other)).result == .failure(.other)
        }
        Checks.check("BackgroundFuture") {
            BackgroundFuture { 6 * 7 }.value == 42
        }
        Checks.check("BackgroundFuture, pending when read") {
            BackgroundFuture { () -> Int in
                pause(milliseconds: 50)
                return 7
            }.value == 7
        }
        Checks.check("BackgroundFuture that throws") {
            BackgroundFuture { () throws(Boom) -> Int in throw .boom }.result == .failure(.boom)
        }
        Checks.check("BackgroundFuture(after:)") {
            let start = Date()
            let value = BackgroundFuture(after: .milliseconds(50)) { 8 }.value
            return value == 8 && Date().timeIntervalSince(start) >= 0.045
        }
        Checks.check("LazyFuture runs once, on the first read") {
            let runs = Counter()
            let lazy = LazyFuture { () -> Int in
                runs.bump()
                return 9
            }
            pause(milliseconds: 20)
            let before = runs.value
            return before == 0 && lazy.value == 9 && lazy.value == 9 && runs.value == 1
        }
        Checks.check("Promise succeeds from another thread") {
            let promise = Promise<Int, Never>()
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { promise.succeed(5) }
            return promise.future.value == 5
        }
        Checks.check("Promise fails, completes once") {
            let promise = Promise<Int, Boom>()
            let first = promise.fail(.boom)
            let second = promise.succeed(1)
            return first && !second && promise.future.result == .failure(.boom)
        }
        Checks.check("Promise complete(with:)") {
            let promise = Promise<Int, Boom>()
            promise.complete(with: .success(3))
            return promise.future.result == .success(3)
        }
        Checks.check("peek and result(timeout:)") {
            let promise = Promise<Int, Never>()
            let early = promise.future.peek
            let timedOut = promise.future.result(timeout: .milliseconds(20))
            promise.succeed(4)
            return early == nil && timedOut == nil && promise.future.peek == .success(4)
        }
        Checks.check("onComplete, onSuccess, onFailure") {
            let calls = Counter()
            let promise = Promise<Int, Boom>()
            promise.future
                .onComplete { if $0 == .success(6) { calls.bump() } }
                .onSuccess { if $0 == 6 { calls.bump() } }
                .onFailure { _ in calls.bump(); calls.bump(); calls.bump() }
            promise.succeed(6)
            let failing = Future<Int, Boom>(failure: .boom)
            failing.onFailure { if $0 == .boom { calls.bump() } }
            failing.onSuccess { _ in calls.bump(); calls.bump() }
            return Checks.eventually { calls.value == 3 } && calls.value == 3
        }
        Checks.check("callback on a context") {
            let ran = Counter()
            BackgroundFuture { 1 }.onSuccess(on: .global()) { _ in ran.bump() }
            return Checks.eventually { ran.value == 1 }
        }
    }
}
