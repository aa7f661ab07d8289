import Foundation
import Testing

@testable import Futures

/// Issue 24: nothing kept that nobody can use. What a combinator, a timeout or a waiting reader
/// registered is freed when the race, timeout or wait it served is decided, and futures that
/// nothing can reach any more are freed, with their callbacks and all those captured.
///
/// Each test watches with weak references (`WeakBox`, `Canary`) and, where a case involves
/// threads or tasks, runs it on many of them at once.
@Suite("memory: nothing kept that nobody can use")
struct MemoryReleaseTests {
    /// What a test watches: weak references that must all be released.
    struct Watched: Sendable {
        let boxes: [WeakBox<_FutureCore>]
        let canaries: [WeakBox<Canary>]

        var allReleased: Bool { boxes.allSatisfy(\.isReleased) && canaries.allSatisfy(\.isReleased) }
    }

    // MARK: 1. zip and all with a lazy source that never runs

    @Test("a zip that fails before its lazy source runs frees that source and its captures", arguments: [1, 8])
    func zipFailingBeforeALazySourceFreesIt(threads: Int) {
        let watched = Locked<[Watched]>([])
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<100 {
                let (lazy, canary) = withCanary { canary in LazyFuture { () throws -> Int in canary.name.count } }
                let failed = Future<Int, any Error>(failure: Boom())
                let zipped = zip(failed, lazy)
                #expect(throws: Boom.self) { try zipped.value }
                watched.withLock { $0.append(Watched(boxes: [WeakBox(lazy), WeakBox(zipped)], canaries: [canary])) }
            }
        }
        #expect(watched.withLock { $0.allSatisfy(\.allReleased) })
    }

    @Test("Future.all that fails before its lazy source runs frees that source and its captures")
    func allFailingBeforeALazySourceFreesIt() {
        for _ in 0..<200 {
            let watched: Watched = {
                let (lazy, canary) = withCanary { canary in LazyFuture { () throws -> Int in canary.name.count } }
                let failed = Promise<Int, any Error>()
                failed.fail(Boom())
                let all = Future.all([failed.future, lazy])
                #expect(throws: Boom.self) { try all.value }
                return Watched(boxes: [WeakBox(lazy), WeakBox(all)], canaries: [canary])
            }()
            #expect(watched.allReleased)
        }
    }

    @Test("Future.all of a background future that throws and a lazy one frees both")
    func allOfAThrowingBackgroundFutureAndALazyOneFreesBoth() {
        for _ in 0..<200 {
            let watched: Watched = {
                let (lazy, canary) = withCanary { canary in LazyFuture { () throws -> Int in canary.name.count } }
                let throwing = BackgroundFuture { () throws -> Int in throw Boom() }
                _ = throwing.result
                let all = Future.all([throwing, lazy])
                #expect(throws: Boom.self) { try all.value }
                return Watched(boxes: [WeakBox(lazy), WeakBox(all)], canaries: [canary])
            }()
            // The pool's thread lets go of the background future just after it resolves it.
            let released = onNewThread { waitUntilReleased(watched) }
            #expect(released)
            if !released { break }
        }
    }

    @Test("a zip of pending promises, all dropped, frees the promises, the zip and its callbacks")
    func zipOfDroppedPromisesIsFreed() {
        let watched: Watched = {
            let first = Promise<Int, any Error>()
            let second = Promise<String, any Error>()
            let zipped = zip(first.future, second.future)
            let canary = Canary()
            zipped.onComplete { _ in _ = canary.name }
            return Watched(
                boxes: [WeakBox(first.future), WeakBox(second.future), WeakBox(zipped)], canaries: [WeakBox(canary)])
        }()
        #expect(watched.allReleased)
    }

    /// A derived future holds a background future on a pool of Futures' own strongly (it always
    /// resolves), but not one on a context made from a closure, which may never run the work: held
    /// strongly, such a future and its `map` kept each other for ever through the map's callback.
    @Test("a map and a bounded all of background futures whose context never runs them, dropped, are freed")
    func derivedFuturesOfWorkThatNeverRunsAreFreed() {
        let nowhere = ExecutionContext { _ in }
        let watched: Watched = {
            let source = BackgroundFuture(on: nowhere) { 1 }
            let mapped = source.map { $0 + 1 }
            let canary = Canary()
            mapped.onComplete { _ in _ = canary.name }
            let bounded = Future.all(0..<3, maxConcurrent: 2) { index in BackgroundFuture(on: nowhere) { index } }
            return Watched(
                boxes: [WeakBox(source), WeakBox(mapped), WeakBox(bounded)], canaries: [WeakBox(canary)])
        }()
        #expect(watched.allReleased)
    }

    /// And a map of a background future on a pool lets go of it once the map resolves.
    @Test("a map of a background future on a pool, dropped, is freed once the work has run")
    func mapOfPoolWorkIsFreedOnceResolved() {
        let ran = DispatchSemaphore(value: 0)
        let watched: Watched = {
            let source = BackgroundFuture { () -> Int in
                ran.signal()
                return 1
            }
            let mapped = source.map { $0 + 1 }
            return Watched(boxes: [WeakBox(source), WeakBox(mapped)], canaries: [])
        }()
        #expect(ran.wait(timeout: .now() + 60) == .success)
        #expect(eventually { watched.allReleased })
    }

    @Test("zip still succeeds with every value in order, from sources resolved on many threads")
    func zipStillSucceedsInOrder() {
        for _ in 0..<200 {
            let first = Promise<Int, any Error>()
            let second = Promise<String, any Error>()
            let third = Promise<Double, any Error>()
            let zipped = zip(first.future, second.future, third.future)
            DispatchQueue.concurrentPerform(iterations: 3) { index in
                switch index {
                case 0: first.succeed(1)
                case 1: second.succeed("two")
                default: third.succeed(3)
                }
            }
            let (one, two, three) = try! zipped.value
            #expect(one == 1 && two == "two" && three == 3)
        }
    }

    // MARK: 2. timeouts and their timers

    @Test("a timeout whose source wins cancels its timer: the timeout and its error are freed", arguments: [1, 8])
    func timeoutLosingFreesItsTimer(threads: Int) {
        let watched = Locked<[Watched]>([])
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<100 {
                let promise = Promise<Int, CanaryError>()
                let (timed, canary) = withCanary { canary in
                    promise.future.timeout(after: .seconds(3600), failingWith: CanaryError(canary: canary))
                }
                promise.succeed(1)
                #expect(try! timed.value == 1)
                watched.withLock { $0.append(Watched(boxes: [WeakBox(timed)], canaries: [canary])) }
            }
        }
        // Dispatch lets go of a cancelled timer's handler on its own queue, soon after.
        let all = watched.withLock { $0 }
        #expect(onNewThread { all.allSatisfy { waitUntilReleased($0) } })
    }

    @Test("a zero timeout polled on one pending future leaves nothing on it")
    func zeroTimeoutsOnAPendingFutureLeaveNothing() {
        let promise = Promise<Int, any Error>()
        var boxes: [WeakBox<_FutureCore>] = []
        for _ in 0..<500 {
            let timed = promise.future.timeout(after: .zero)
            #expect(throws: FutureTimeoutError.self) { try timed.value }
            boxes.append(WeakBox(timed))
        }
        #expect(promise.future._parkedCallbackCount == 0)
        #expect(boxes.allSatisfy { $0.isReleased })
        promise.succeed(1)
    }

    @Test("a timeout that fires first takes its callback back from the source")
    func firedTimeoutTakesItsCallbackBack() {
        let promise = Promise<Int, any Error>()
        let timed = promise.future.timeout(after: .milliseconds(1))
        #expect(throws: FutureTimeoutError.self) { try timed.value }
        // The timer's thread takes the callback back just after it resolves the timeout.
        let future = promise.future
        #expect(onNewThread { eventually { future._parkedCallbackCount == 0 } })
        promise.succeed(1)
    }

    // MARK: 3. cancelled waits

    @Test("cancelled waits on one pending future take their callbacks back", arguments: [1, 64])
    func cancelledWaitsTakeTheirCallbacksBack(tasks: Int) async {
        let promise = Promise<Int, any Error>()
        let future = promise.future
        let typed = Promise<Int, ParseError>()
        let waiters = (0..<tasks).map { index in
            Task {
                if index.isMultiple(of: 2) {
                    _ = try? await future.get()
                } else {
                    _ = try? await typed.future.cancellableResult()
                }
            }
        }
        while future._parkedCallbackCount + typed.future._parkedCallbackCount < tasks {
            await Task.yield()
        }
        for waiter in waiters { waiter.cancel() }
        for waiter in waiters { await waiter.value }
        #expect(future._parkedCallbackCount == 0)
        #expect(typed.future._parkedCallbackCount == 0)
        promise.succeed(1)
        typed.succeed(2)
    }

    @Test("a wait cancelled while it registers takes its callback back too")
    func waitCancelledWhileRegistering() async {
        let promise = Promise<Int, any Error>()
        for _ in 0..<500 {
            let waiter = Task { _ = try? await promise.future.get() }
            waiter.cancel()
            await waiter.value
        }
        #expect(promise.future._parkedCallbackCount == 0)
        promise.succeed(1)
    }

    // MARK: 4. futures nobody can reach

    /// How a test's chain derives one future from the next: a `map`, or a `flatMap` to a resolved
    /// future. Each keeps its child and transform in a step object that is also its links
    /// (`MapStep`, `FlatMapStep`), so each is checked for the same cycles.
    enum Step: CaseIterable, Sendable {
        case map, flatMap

        func apply(
            _ future: Future<Int, Never>, _ transform: @escaping @Sendable (Int) -> Int
        ) -> Future<Int, Never> {
            switch self {
            case .map: future.map(transform)
            case .flatMap: future.flatMap { Future(value: transform($0)) }
            }
        }
    }

    @Test(
        "a promise and a map or flatMap of it, both dropped pending, are freed with its captures",
        arguments: Step.allCases, [1, 8])
    func promiseAndMapDroppedPendingAreFreed(step: Step, threads: Int) {
        let watched = Locked<[Watched]>([])
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<100 {
                let one: Watched = {
                    let promise = Promise<Int, Never>()
                    let (mapped, canary) = withCanary { canary in
                        step.apply(promise.future) { $0 + canary.name.count }
                    }
                    return Watched(boxes: [WeakBox(promise.future), WeakBox(mapped)], canaries: [canary])
                }()
                watched.withLock { $0.append(one) }
            }
        }
        #expect(watched.withLock { $0.allSatisfy(\.allReleased) })
    }

    @Test(
        "map.map.onSuccess of a promise, all dropped pending, is freed with every capture (and with flatMap)",
        arguments: Step.allCases)
    func chainWithACallbackDroppedPendingIsFreed(step: Step) {
        for _ in 0..<200 {
            let watched: Watched = {
                let promise = Promise<Int, Never>()
                let first = step.apply(promise.future) { $0 + 1 }
                let second = step.apply(first) { $0 * 2 }
                let canary = Canary()
                second.onSuccess { _ in _ = canary.name }
                return Watched(
                    boxes: [WeakBox(promise.future), WeakBox(first), WeakBox(second)], canaries: [WeakBox(canary)])
            }()
            #expect(watched.allReleased)
        }
    }

    /// An object that holds a future, which a transform of that future's chain captures: a cycle
    /// through the `map`'s step (`MapStep`: child → step → transform → holder → child) that only
    /// the source's resolution or its release can break.
    final class FutureHolder: @unchecked Sendable {
        // @unchecked: written once, before any other thread sees the holder.
        var future: Future<Int, Never>?
    }

    @Test(
        "a map or flatMap of a promise whose transform captures its holder is freed when the promise is dropped pending",
        arguments: Step.allCases, [1, 2, 8])
    func mapWhoseTransformHoldsTheMapIsFreedWithItsPromise(step: Step, length: Int) {
        for _ in 0..<100 {
            let watched: Watched = {
                let promise = Promise<Int, Never>()
                let holder = FutureHolder()
                var boxes = [WeakBox<_FutureCore>(promise.future)]
                var future = promise.future
                for _ in 0..<length {
                    future = step.apply(future) { [holder] in $0 + (holder.future == nil ? 0 : 1) }
                    boxes.append(WeakBox(future))
                }
                holder.future = future
                return Watched(boxes: boxes, canaries: [])
            }()
            // A Bool, not `watched`: a failed expectation describes the values it captured, and
            // a pending future's description (FutureProxy's) would wait for its value.
            let released = watched.allReleased
            #expect(released)
        }
    }

    @Test(
        "a map or flatMap of a promise whose transform captures its holder is freed once the promise succeeds",
        arguments: Step.allCases)
    func mapWhoseTransformHoldsTheMapIsFreedOnceResolved(step: Step) {
        for _ in 0..<100 {
            let (box, promise): (WeakBox<_FutureCore>, Promise<Int, Never>) = {
                let promise = Promise<Int, Never>()
                let holder = FutureHolder()
                let mapped = step.apply(promise.future) { [holder] in $0 + (holder.future == nil ? 0 : 1) }
                holder.future = mapped
                return (WeakBox(mapped), promise)
            }()
            let keptWhilePending = !box.isReleased
            #expect(keptWhilePending)
            promise.succeed(1)
            let released = box.isReleased
            #expect(released)
        }
    }

    @Test(
        "a map.onSuccess (or flatMap) of a promise that is kept still runs when the promise is completed",
        arguments: Step.allCases)
    func keptPromiseStillRunsItsChain(step: Step) {
        let ran = Signal()
        let promise = Promise<Int, Never>()
        step.apply(step.apply(promise.future) { $0 + 1 }) { $0 * 2 }.onSuccess { value in
            if value == 4 { ran.send() }
        }
        promise.succeed(1)
        #expect(ran.wait())
    }

    @Test("first(of:) decided by a resolved future takes its callback back from the pending loser")
    func firstOfDropsTheLosersCallback() {
        let pending = Promise<Int, Never>()
        var boxes: [WeakBox<_FutureCore>] = []
        for index in 0..<200 {
            let race = Future.first(of: [Future(value: index), pending.future])
            #expect(race.value == index)
            boxes.append(WeakBox(race))
        }
        #expect(pending.future._parkedCallbackCount == 0)
        #expect(boxes.allSatisfy { $0.isReleased })
        pending.succeed(0)
    }

    @Test("first(of:) won on many threads leaves nothing on the losers")
    func firstOfWonOnManyThreads() {
        let losers = (0..<4).map { _ in Promise<Int, Never>() }
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for index in 0..<100 {
                let winner = Promise<Int, Never>()
                let race = Future.first(of: [winner.future] + losers.map(\.future))
                winner.succeed(index)
                #expect(race.value == index)
            }
        }
        #expect(losers.allSatisfy { $0.future._parkedCallbackCount == 0 })
        for loser in losers { loser.succeed(0) }
    }
}

/// An error that holds a canary, to watch what keeps a timeout's error alive.
struct CanaryError: Error {
    let canary: Canary
}

/// Waits, on a plain thread, until everything `watched` holds weakly is released: some of it is
/// let go by Dispatch on its own queue. Returns `false` if that has not happened within a
/// generous limit, which the tests treat as "never"; it is no timing assertion.
func waitUntilReleased(_ watched: MemoryReleaseTests.Watched) -> Bool {
    eventually { watched.allReleased }
}

/// Waits, on a plain thread, until `condition` holds, or returns `false` after a generous limit.
func eventually(_ condition: () -> Bool) -> Bool {
    let limit = ContinuousClock.now + .seconds(30)
    while !condition() {
        guard ContinuousClock.now < limit else { return false }
        usleep(1_000)
    }
    return true
}

/// The failure of a source that fails first.
struct Boom: Error {}

extension MemoryReleaseTests {
    // MARK: 5. the bounded all

    @Test("a bounded all failed by an item takes its callbacks back from the items in flight and frees its run")
    func boundedAllFailedLeavesNothingOnItemsInFlight() {
        let slow = Promise<Int, any Error>()
        for _ in 0..<200 {
            let watched: Watched = {
                let failing = Promise<Int, any Error>()
                let (all, canary) = withCanary { canary in
                    Future.all(0..<2, maxConcurrent: 2) { index in
                        _ = canary.name
                        return index == 0 ? failing.future : slow.future
                    }
                }
                failing.fail(Boom())
                #expect(throws: Boom.self) { try all.value }
                return Watched(boxes: [WeakBox(failing.future), WeakBox(all)], canaries: [canary])
            }()
            #expect(watched.allReleased)
        }
        #expect(slow.future._parkedCallbackCount == 0)
        slow.succeed(0)
    }

    @Test(
        "a bounded all whose promises are dropped pending is freed, with what makeFuture captured",
        arguments: [1, 8])
    func boundedAllOfDroppedPromisesIsFreed(threads: Int) {
        let watched = Locked<[Watched]>([])
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<50 {
                let one: Watched = {
                    // The closure holds the futures it hands out, as a test's often does: the run
                    // lets go of it with the last item, or that capture would close a cycle.
                    let promises = (0..<3).map { _ in Promise<Int, any Error>() }
                    let futures = promises.map(\.future)
                    let (all, canary) = withCanary { canary in
                        Future.all(0..<3, maxConcurrent: 2) { index in
                            _ = canary.name
                            return futures[index]
                        }
                    }
                    promises[0].succeed(1)
                    return Watched(boxes: futures.map { WeakBox($0) } + [WeakBox(all)], canaries: [canary])
                }()
                watched.withLock { $0.append(one) }
            }
        }
        #expect(watched.withLock { $0.allSatisfy(\.allReleased) })
    }

    @Test("a bounded all of maps of kept promises still succeeds: its weak links lose nothing")
    func boundedAllOfMapsOfKeptPromisesSucceeds() {
        for _ in 0..<100 {
            let promises = (0..<4).map { _ in Promise<Int, Never>() }
            let all = Future.all(0..<4, maxConcurrent: 2) { index in promises[index].future.map { $0 * 10 } }
            DispatchQueue.concurrentPerform(iterations: 4) { index in promises[index].succeed(index) }
            #expect(all.value == [0, 10, 20, 30])
        }
    }
}
