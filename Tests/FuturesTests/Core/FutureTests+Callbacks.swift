import Foundation
import Testing

@testable import Futures

/// docs/design.md, Callbacks, for the engine's hook: a callback registered with `_whenResolved` runs exactly
/// once, with the result, whether it is registered before or after resolution, and it never
/// starts work.
extension FutureTests {
    @Test func aCallbackRegisteredBeforeResolutionRunsOnceWhenItResolves() {
        let promise = Promise<Int, Never>()
        let calls = Collector<Int>()
        promise.future._whenResolved { calls.append($0.success) }
        #expect(calls.all.isEmpty)
        promise.succeed(5)
        #expect(calls.all == [5])
        promise.succeed(6)
        #expect(calls.all == [5])
    }

    @Test func aCallbackRegisteredAfterResolutionRunsOnceAtOnce() {
        let promise = Promise<Int, ParseError>()
        promise.fail(.empty)
        let calls = Collector<Result<Int, ParseError>>()
        promise.future._whenResolved { calls.append($0) }
        #expect(calls.all == [.failure(.empty)])
    }

    @Test func registeringACallbackNeverStartsLazyWork() {
        let runs = Counter()
        let future = LazyFuture { runs.increment() }
        let calls = Collector<Int>()
        future._whenResolved { calls.append($0.success) }
        #expect(runs.value == 0)
        #expect(calls.all.isEmpty)
        #expect(future.value == 1)
        #expect(calls.all == [1])
    }

    @Test func aCallbacksCapturesAreReleasedOnceItHasRun() {
        let promise = Promise<Int, Never>()
        let ran = Counter()
        let (_, canary) = withCanary { canary in
            promise.future._whenResolved { _ in
                blackHole(canary)
                ran.increment()
            }
        }
        #expect(!canary.isReleased)
        promise.succeed(1)
        #expect(ran.value == 1)
        #expect(canary.isReleased)
    }

    @Test(arguments: [2, 8, 64])
    func callbacksRacingTheResolutionEachRunExactlyOnce(threads: Int) {
        let racers = RacingThreads(count: threads)
        defer { racers.stop() }
        let perThread = 16
        // Half the rounds under a sanitizer: with 64 threads, 300 rounds took 22 s under
        // ThreadSanitizer, which sees a racy access whatever the interleaving.
        let rounds = sanitizerSlowdown > 1 ? 150 : 300
        for round in 0..<rounds {
            let promise = Promise<Int, Never>()
            // One callback registered before the race, `perThread` from each racing thread
            // (thread 0 resolves the promise halfway through its own), and one after the race.
            let calls = (0..<(threads * perThread + 2)).map { _ in Collector<Int>() }
            promise.future._whenResolved { calls[0].append($0.success) }
            racers.race { index in
                for step in 0..<perThread {
                    if index == 0 && step == perThread / 2 { promise.succeed(round) }
                    let slot = 1 + index * perThread + step
                    promise.future._whenResolved { calls[slot].append($0.success) }
                }
            }
            promise.future._whenResolved { calls[calls.count - 1].append($0.success) }
            #expect(calls.allSatisfy { $0.all == [round] })
        }
    }
}
