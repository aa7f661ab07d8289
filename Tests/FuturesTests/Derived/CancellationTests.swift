import Foundation
import Synchronization
import Testing

@testable import Futures

@Suite("cancel and isCancelled")
struct CancellationTests {
    @Test("cancelling before start means the work never runs and its closure is released")
    func cancelBeforeStart() {
        final class Token: Sendable {}
        let runs = CallCounter()
        weak var weakToken: Token?
        let future: LazyFuture<Int, any Error>
        do {
            let token = Token()
            weakToken = token
            future = LazyFuture { () throws -> Int in
                withExtendedLifetime(token) { runs.increment() }; return 1
            }
        }
        #expect(future.cancel())
        #expect(weakToken == nil)
        #expect(future.isCancelled)
        #expect(throws: CancellationError.self) { try future.value }
        #expect(runs.value == 0)
        #expect(!future.cancel())
    }

    @Test("cancelling queued background work means it never runs")
    func cancelQueuedBackgroundWork() {
        let serial = DispatchQueue(label: "blocked")
        let gate = CompositionGate()
        serial.async { gate.wait() }
        let runs = CallCounter()
        let future = BackgroundFuture(on: .queue(serial)) { () throws -> Int in
            runs.increment(); return 1
        }
        future.cancel()
        gate.open()
        serial.sync {}
        #expect(runs.value == 0)
        #expect(throws: CancellationError.self) { try future.value }
    }

    @Test("cancel releases a blocked reader at once", arguments: 0..<20)
    func cancelReleasesBlockedReader(repetition: Int) {
        let gate = CompositionGate()
        let started = DispatchSemaphore(value: 0)
        let future = BackgroundFuture { () throws -> Int in
            started.signal()
            gate.wait()
            return 1
        }
        started.wait()
        let readerDone = DispatchSemaphore(value: 0)
        let outcome = LockedBox<Bool?>(nil)
        Thread.detachNewThread {
            let cancelled = (try? future.value) == nil
            outcome.withLock { $0 = cancelled }
            readerDone.signal()
        }
        future.cancel()
        readerDone.wait()
        #expect(outcome.withLock { $0 } == true)
        gate.open()
    }

    @Test("running work sees that it was cancelled and its result is dropped")
    func runningWorkObservesCancellation() {
        let started = DispatchSemaphore(value: 0)
        let cancelled = DispatchSemaphore(value: 0)
        let observed = DispatchSemaphore(value: 0)
        let future = BackgroundFuture { () throws -> Int in
            #expect(!Future.isCurrentWorkCancelled)
            started.signal()
            cancelled.wait()
            #expect(Future.isCurrentWorkCancelled)
            #expect(throws: CancellationError.self) { try Future.checkCancellation() }
            observed.signal()
            return 1
        }
        started.wait()
        future.cancel()
        cancelled.signal()
        observed.wait()
        #expect(throws: CancellationError.self) { try future.value }
        #expect(!Future.isCurrentWorkCancelled)
    }

    @Test("the outcome of work cancelled while it ran is released, though the future is held")
    func cancelledOutcomeIsReleased() {
        final class Outcome: Sendable {
            let released: DispatchSemaphore
            init(released: DispatchSemaphore) { self.released = released }
            deinit { released.signal() }
        }
        let started = DispatchSemaphore(value: 0)
        let cancelled = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        let future = BackgroundFuture { () throws -> Outcome in
            started.signal()
            cancelled.wait()
            return Outcome(released: released)
        }
        started.wait()
        #expect(future.cancel())
        cancelled.signal()
        // The runner finds the cancel when it publishes, and drops what its work returned. Kept in
        // the slot instead, the outcome would live as long as the future: the wait gives up
        // after a minute rather than hang.
        #expect(released.wait(timeout: .now() + 60) == .success)
        #expect(throws: CancellationError.self) { try future.value }
        withExtendedLifetime(future) {}
    }

    @Test("a cancel racing the runner's publication: readers, callbacks and isCancelled agree", arguments: [2, 4])
    func cancelRacesPublication(threads: Int) {
        let racers = RacingThreads(count: threads)
        defer { racers.stop() }
        for round in 0..<300 {
            let runs = CallCounter()
            let future = LazyFuture { () throws -> Int in
                runs.increment()
                return round
            }
            let seen = Locked<[Int?]>([])
            let delivered = Locked<Int?>(nil)
            _ = future.onComplete { result in delivered.withLock { $0 = (try? result.get()) ?? -1 } }
            racers.race { index in
                if index == 0 {
                    _ = future.cancel()
                } else {
                    let value = try? future.value
                    seen.withLock { $0.append(value) }
                }
            }
            // Every reader saw the same outcome, which the callback was given, and which
            // `isCancelled` names; the work ran at most once, and a value means it ran.
            let outcomes = seen.withLock { $0 }
            let expected: Int? = future.isCancelled ? nil : round
            let agree = outcomes.allSatisfy { $0 == expected } && delivered.withLock { $0 } == (expected ?? -1)
            #expect(agree, "round \(round): readers saw \(outcomes), cancelled: \(future.isCancelled)")
            #expect(runs.value <= 1)
            if expected != nil { #expect(runs.value == 1) }
        }
    }

    @Test("the reader running a lazy future's work gets the cancellation that resolved it meanwhile")
    func readerRunningLazyWorkSeesCancellation() {
        let started = DispatchSemaphore(value: 0)
        let cancelled = DispatchSemaphore(value: 0)
        let future = LazyFuture { () throws -> Int in
            started.signal()
            cancelled.wait()
            return 1
        }
        let outcome = Locked<Result<Int, any Error>?>(nil)
        let read = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            outcome.withLock { $0 = future.result }
            read.signal()
        }
        started.wait()
        future.cancel()
        cancelled.signal()
        read.wait()
        let result = outcome.withLock { $0 }
        #expect(throws: CancellationError.self) { try result?.get() }
        #expect(future.isCancelled)
    }

    @Test("cancellation reaches derived futures")
    func cancelReachesChildren() {
        let promise = Promise<Int, any Error>()
        let mapped = promise.future.map { $0 + 1 }
        let chained = mapped.flatMap { value in LazyFuture { () throws -> Int in value } }
        let zipped = zip(mapped, promise.future)
        let all = Future.all([mapped, promise.future])
        promise.future.cancel()
        #expect(mapped.isCancelled)
        #expect(chained.isCancelled)
        #expect(zipped.isCancelled)
        #expect(all.isCancelled)
        #expect(throws: CancellationError.self) { try chained.value }
        #expect(!promise.succeed(1))
    }

    @Test("cancellation reaches a lazy child when it is read")
    func cancelReachesLazyChild() {
        let parent = LazyFuture { () throws -> Int in 1 }
        let child = parent.map { $0 + 1 }
        parent.cancel()
        #expect(throws: CancellationError.self) { try child.value }
        #expect(child.isCancelled)
    }

    /// A lazy source's `map` and `flatMap` park their step on the source only when a reader
    /// demands the child; a cancel that comes first lets go of the step's transform instead. The
    /// two take the same mark under the child's lock: whichever wins, nothing runs twice, the
    /// reader and `isCancelled` agree, and nothing is kept once the test lets go, though the
    /// transform holds the child (as a transform that captures its owner does).
    @Test(
        "a first read racing a cancel of a lazy source's child: one wins, and nothing is kept",
        arguments: [false, true])
    func firstReadRacesCancelOfLazyChild(flatMap: Bool) {
        let racers = RacingThreads(count: 2)
        defer { racers.stop() }
        var outcomes = (read: 0, cancelled: 0)
        for round in 0..<300 {
            let runs = CallCounter()
            let itself = Slot<Future<Int, any Error>>()
            var child: Future<Int, any Error>?
            var canaryBox: WeakBox<Canary>?
            var sourceBox: WeakBox<LazyFuture<Int, any Error>>?
            do {
                let source = LazyFuture { () throws -> Int in
                    runs.increment()
                    return round
                }
                let canary = Canary()
                (canaryBox, sourceBox) = (WeakBox(canary), WeakBox(source))
                // The transform holds the child, through `itself`: a cycle that only the step's
                // run or the cancel's letting go of the transform breaks.
                let made: Future<Int, any Error> =
                    flatMap
                    ? source.flatMap { value in
                        withExtendedLifetime((canary, itself)) { Future<Int, any Error>(value: value + 1) }
                    }
                    : source.map { value in withExtendedLifetime((canary, itself)) { value + 1 } }
                itself.value = made
                child = made
            }
            let seen = Locked<Int?>(nil)
            racers.race { [child] index in
                if index == 0 {
                    _ = child?.cancel()
                } else {
                    seen.withLock { $0 = try? child?.value }
                }
            }
            let cancelled = child?.isCancelled ?? false
            if cancelled { outcomes.cancelled += 1 } else { outcomes.read += 1 }
            #expect(seen.withLock { $0 } == (cancelled ? nil : round + 1), "round \(round)")
            #expect(runs.value <= 1)
            if !cancelled { #expect(runs.value == 1) }
            child = nil
            let transformReleased = eventually { canaryBox?.isReleased ?? false }
            let sourceReleased = eventually { sourceBox?.isReleased ?? false }
            #expect(transformReleased, "round \(round): the transform was kept")
            #expect(sourceReleased, "round \(round): the source was kept")
            itself.value = nil
            // One leak is enough to fail: each look waits 30 seconds before it gives up.
            guard transformReleased && sourceReleased else { return }
        }
        // Both orders happen in 300 rounds; if one never did, the test proved half of its claim.
        print("lazy \(flatMap ? "flatMap" : "map"), first read against cancel: \(outcomes)")
    }

    @Test(
        "a first read racing a cancel of a lazy zip: one wins, and nothing is kept",
        arguments: [false, true])
    func firstReadRacesCancelOfLazyZip(secondIsLazy: Bool) {
        let racers = RacingThreads(count: 2)
        defer { racers.stop() }
        var outcomes = (read: 0, cancelled: 0)
        for round in 0..<300 {
            let runs = CallCounter()
            var zipped: Future<(Int, Int), any Error>?
            var boxes: [WeakBox<Future<Int, any Error>>] = []
            do {
                let first: Future<Int, any Error> = LazyFuture { () throws -> Int in
                    runs.increment()
                    return round
                }
                // Not lazy, made in the call and held by nothing else: the zip must keep it until
                // it is read.
                let second: Future<Int, any Error> =
                    secondIsLazy ? LazyFuture { () throws -> Int in 1 } : Future(value: 1)
                boxes = [WeakBox(first), WeakBox(second)]
                zipped = zip(first, second)
            }
            let zipBox = zipped.map { WeakBox<Future<(Int, Int), any Error>>($0) }
            let seen = Locked<Int?>(nil)
            racers.race { [zipped] index in
                guard let zipped else { return }
                if index == 0 {
                    // A read takes longer to reach the step than a cancel: the cancel starts later
                    // by a different amount each round, so that both orders, and a connection that
                    // loses to the cancel, happen.
                    var delay = 0
                    for step in 0..<(round % 30) * 400 { delay &+= step }
                    _ = delay
                    _ = zipped.cancel()
                } else {
                    seen.withLock { $0 = (try? zipped.value).map { $0.0 + $0.1 } }
                }
            }
            let cancelled = zipped?.isCancelled ?? false
            if cancelled { outcomes.cancelled += 1 } else { outcomes.read += 1 }
            #expect(seen.withLock { $0 } == (cancelled ? nil : round + 1), "round \(round)")
            #expect(runs.value <= 1)
            if !cancelled { #expect(runs.value == 1) }
            // Resolved, read or cancelled, the zip holds neither source, though it lives on.
            let sourcesReleased = eventually { boxes.allSatisfy(\.isReleased) }
            #expect(sourcesReleased, "round \(round): the resolved zip kept a source")
            zipped = nil
            // The step holds the child once it is connected, until it is decided or cancelled:
            // a connection that loses to the cancel must let go of it too.
            let released = sourcesReleased && eventually { zipBox?.isReleased ?? false }
            #expect(released, "round \(round): the zip was kept")
            guard released else { return }
        }
        print("lazy zip, first read against cancel: \(outcomes)")
    }

    @Test("cancelling a future from an async closure cancels its task")
    func cancelCancelsTask() async {
        let sawCancellation = Promise<Void, Never>()
        let future = Future.task { () async throws -> Int in
            while !Task.isCancelled { await Task.yield() }
            sawCancellation.succeed()
            return 1
        }
        future.cancel()
        await sawCancellation.future.get()
        #expect(future.isCancelled)
    }

    @Test("a cancelled delayed future never runs its work")
    func cancelDelayed() {
        let runs = CallCounter()
        let made = ContinuousClock.now
        let future = BackgroundFuture(after: .milliseconds(20)) { () throws -> Int in
            runs.increment(); return 1
        }
        future.cancel()
        // On a machine so loaded that the cancel came after the delay, the work may have started
        // first: nothing to check then.
        let cancelledInTime = ContinuousClock.now - made < .milliseconds(20)
        let probe = BackgroundFuture(after: .milliseconds(40)) { 0 }
        _ = probe.value
        if cancelledInTime { #expect(runs.value == 0) }
    }
}
