import Foundation
import Observation
import Testing

@testable import FuturesApps

@Suite("FutureObservation", .hangGuard(minutes: 2))
@MainActor
struct FutureObservationTests {
    @Test("a pending future's observation has no result until the future resolves, then it has its result")
    func pendingThenResolved() async {
        let promise = Promise<String, ParseError>()
        let load = promise.future.observed()
        #expect(load.isPending)
        #expect(load.result == nil && load.value == nil && load.error == nil)
        await waitForChange(of: load) { promise.succeed("ready") }
        #expect(!load.isPending)
        #expect(load.value == "ready")
        #expect(load.error == nil)
    }

    @Test("a failure shows as error, with no value")
    func failureShowsAsError() async {
        let promise = Promise<Int, ParseError>()
        let load = promise.future.observed()
        await waitForChange(of: load) { promise.fail(.badDigit(position: 3)) }
        #expect(load.error == .badDigit(position: 3))
        #expect(load.value == nil)
        #expect(!load.isPending)
    }

    @Test("a cancelled future's observation says it is cancelled")
    func cancellationShows() async {
        let promise = Promise<Int, any Error>()
        let load = promise.future.observed()
        #expect(!load.isCancelled)
        await waitForChange(of: load) { promise.future.cancel() }
        #expect(load.isCancelled)
        #expect(load.error is CancellationError)
    }

    @Test("observing a resolved future gives its result at once, with no change to come")
    func resolvedFutureAtOnce() async {
        let load = Future<Int, Never>(value: 7).observed()
        #expect(load.value == 7)
        let changes = Counter()
        withObservationTracking {
            _ = load.result
        } onChange: {
            changes.increment()
        }
        await drainMainQueue()
        #expect(changes.value == 0)
    }

    @Test(
        "exactly one change of result per future, on the main actor, with futures resolved from many threads",
        arguments: [1, 8, 64])
    func exactlyOneChangePerFuture(threads: Int) async {
        let count = 256
        let promises = (0..<count).map { _ in Promise<Int, ParseError>() }
        let loads = promises.map { $0.future.observed() }
        let changes = (0..<count).map { _ in Counter() }
        let offMain = Counter()
        for (load, counter) in zip(loads, changes) {
            withObservationTracking {
                _ = load.result
            } onChange: {
                if !onMainQueue.isCurrent { offMain.increment() }
                counter.increment()
            }
        }
        await onThreads(threads) { thread in
            // Each promise is completed by every thread that reaches it; only one succeeds.
            for index in stride(from: thread % count, to: count, by: 1) {
                if index.isMultiple(of: 5) {
                    promises[index].fail(.badDigit(position: index))
                } else {
                    promises[index].succeed(index)
                }
            }
        }
        await drainMainQueue()
        // Tracking anew after every result arrived: no further change may come.
        let later = Counter()
        for load in loads {
            withObservationTracking {
                _ = load.result
            } onChange: {
                later.increment()
            }
        }
        for promise in promises { promise.succeed(-1) }
        await drainMainQueue()
        #expect(changes.allSatisfy { $0.value == 1 })
        #expect(offMain.value == 0)
        #expect(later.value == 0)
        for (index, load) in loads.enumerated() {
            if index.isMultiple(of: 5) {
                #expect(load.error == .badDigit(position: index))
            } else {
                #expect(load.value == index)
            }
        }
    }

    @Test("observing a lazy future does not run its work")
    func lazyWorkDoesNotStart() async {
        let runs = Counter()
        let table = LazyFuture { runs.increment() }
        let load = table.observed()
        await drainMainQueue()
        #expect(runs.value == 0)
        #expect(load.isPending)
        #expect(!table.isResolved)
        // Someone else reads it: the observation then follows.
        await waitForChange(of: load) {
            Thread.detachNewThread { _ = table.value }
        }
        #expect(load.value == 1)
        #expect(runs.value == 1)
    }

    @Test("an observation does not keep the future, its work or what the work captured alive")
    func observationDoesNotKeepWorkAlive() async {
        let (made, canary) = withCanary { canary in
            let future = LazyFuture { canary.name.count }
            return (future.observed(), WeakBox(future))
        }
        let (load, future) = made
        #expect(future.isReleased)
        #expect(canary.isReleased)
        #expect(load.isPending)
    }

    @Test("a pending future does not keep an observation that nothing else holds alive")
    func futureDoesNotKeepObservationAlive() async {
        let promise = Promise<Int, Never>()
        weak var observation: FutureObservation<Int, Never>?
        do {
            let load = promise.future.observed()
            observation = load
            #expect(observation != nil)
        }
        #expect(observation == nil)
        promise.succeed(1)
        await drainMainQueue()
    }

    @Test("observing never blocks: made from the main actor while the work is held")
    func observingNeverBlocks() async {
        let gate = Gate()
        let work = BackgroundFuture {
            gate.wait()
            return 3
        }
        let load = work.observed()
        #expect(load.isPending)
        await waitForChange(of: load) { gate.open() }
        #expect(load.value == 3)
    }

    /// Tracks `load.result`, runs `trigger`, and returns once `result` has changed on the main
    /// actor, recording that the change came on the main queue.
    private func waitForChange<Value, Failure>(
        of load: FutureObservation<Value, Failure>, trigger: @Sendable () -> Void
    ) async {
        let onMain = Locked<Bool?>(nil)
        await withCheckedContinuation { (changed: CheckedContinuation<Void, Never>) in
            withObservationTracking {
                _ = load.result
            } onChange: {
                onMain.withLock { $0 = onMainQueue.isCurrent }
                changed.resume()
            }
            trigger()
        }
        #expect(onMain.withLock { $0 } == true)
        #expect(load.result != nil)
    }
}
