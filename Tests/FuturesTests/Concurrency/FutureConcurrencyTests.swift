import Foundation
import Futures
import Testing

/// `get()`: the async read, which suspends and never parks a thread (docs/design.md, Waiting).
struct FutureConcurrencyTests {
    @Test func getOnAResolvedFutureReturnsItsValue() async {
        let promise = Promise<String, Never>()
        promise.succeed("ready")
        let value: String = await promise.future.get()
        #expect(value == "ready")
    }

    @Test(.hangGuard(minutes: 5))
    func aHundredTasksAwaitingAPendingPromiseAllResumeWithItsValue() async {
        let promise = Promise<Int, Never>()
        let waiting = Counter()
        let values = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    waiting.increment()
                    return await promise.future.get()
                }
            }
            // The completer is one more task of the same pool: were `get()` to park threads
            // instead of suspending, the waiters could take every thread and it would never run.
            group.addTask {
                while waiting.value < 100 { await Task.yield() }
                promise.succeed(42)
                return 42
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(values == Array(repeating: 42, count: 101))
    }

    @Test(.hangGuard(minutes: 5))
    func getOnALazyFutureFromManyTasksRunsTheWorkOnce() async {
        for _ in 0..<20 {
            let runs = Counter()
            let future = LazyFuture { Canary("run \(runs.increment())") }
            let seen = await withTaskGroup(of: Canary.self) { group in
                for _ in 0..<100 { group.addTask { await future.get() } }
                return await group.reduce(into: [Canary]()) { $0.append($1) }
            }
            #expect(runs.value == 1)
            #expect(seen.count == 100)
            #expect(seen.allSatisfy { $0 === seen[0] })
        }
    }

    @Test(.hangGuard(minutes: 5))
    func getOnALazyFutureRunsItsWorkOffTheCallingTask() async {
        let gate = Gate()
        let started = Signal()
        let future = LazyFuture {
            started.send()
            gate.wait()
            return 9
        }
        async let value = future.get()
        // The work blocks at the gate on another thread, while this task goes on to open it.
        await Task.detached { #expect(started.wait()) }.value
        gate.open()
        #expect(await value == 9)
    }

    @Test(.hangGuard(minutes: 5))
    func getFromManyTasksSeesTheTypedError() async {
        let runs = Counter()
        let future = BackgroundFuture { () throws(ParseError) -> Int in
            runs.increment()
            throw .badDigit(position: 1)
        }
        let errors = await withTaskGroup(of: ParseError?.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    do throws(ParseError) {
                        _ = try await future.get()
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            return await group.reduce(into: [ParseError?]()) { $0.append($1) }
        }
        #expect(errors == Array(repeating: .badDigit(position: 1), count: 100))
        #expect(runs.value == 1)
    }

    @Test(.hangGuard(minutes: 5))
    func getResumesWhenABackgroundFutureFinishes() async {
        let gate = Gate()
        let future = BackgroundFuture {
            gate.wait()
            return "finished"
        }
        async let value = future.get()
        gate.open()
        #expect(await value == "finished")
    }
}
