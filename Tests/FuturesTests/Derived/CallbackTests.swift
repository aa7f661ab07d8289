import Foundation
import Synchronization
import Testing
@testable import Futures

@Suite("onComplete, onSuccess, onFailure")
struct CallbackTests {
    @Test("callbacks added before completion run exactly once")
    func callbacksBeforeCompletion() {
        let promise = Promise<Int, TaggedError>()
        let completes = CallCounter()
        let successes = CallCounter()
        let failures = CallCounter()
        promise.future
            .onComplete { _ in completes.increment() }
            .onSuccess { _ in successes.increment() }
            .onFailure { _ in failures.increment() }
        #expect(completes.value == 0)
        promise.succeed(1)
        promise.fail(TaggedError(tag: 0))
        #expect(completes.value == 1)
        #expect(successes.value == 1)
        #expect(failures.value == 0)
    }

    @Test("callbacks added after completion run once, at once, on the caller's thread")
    func callbacksAfterCompletion() {
        let promise = Promise<Int, TaggedError>()
        promise.fail(TaggedError(tag: 4))
        let failures = LockedBox<[Int]>([])
        promise.future.onFailure { error in failures.withLock { $0.append(error.tag) } }
        promise.future.onSuccess { _ in Issue.record("a failed future called onSuccess") }
        #expect(failures.withLock { $0 } == [4])
    }

    @Test("callbacks racing completion from 10 threads each run exactly once, 300 times")
    func callbacksRacingCompletion() {
        let repetitions = 300
        let promises = (0..<repetitions).map { _ in Promise<Int, Never>() }
        let counters = (0..<repetitions).map { _ in (0..<10).map { _ in CallCounter() } }
        raceOnThreads(11, repetitions: repetitions) { repetition, thread in
            if thread == 10 {
                promises[repetition].succeed(repetition)
            } else {
                promises[repetition].future.onComplete { _ in counters[repetition][thread].increment() }
            }
        }
        for repetition in 0..<repetitions {
            #expect(counters[repetition].map(\.value) == Array(repeating: 1, count: 10), "repetition \(repetition)")
        }
    }

    /// A step's child whose error type cannot be cancelled is published from `pending` with one
    /// add (`_resolveUncontended`), not a compare-and-swap: the flags that callbacks and readers
    /// set on it meanwhile must survive that add, or a callback is lost and a reader sleeps on.
    /// One thread registers callbacks on the child until it sees it resolved, and the source
    /// completes on another once the first is at it, so that registrations land while the step
    /// publishes the child; a third thread blocks reading it. Three threads, so that on two cores
    /// the registrant and the resolver mostly run at the same time. With the publication made a
    /// load and a store (a flag set between them lost), 3 runs of 5 failed, at 2,000 repetitions as
    /// at 10,000: the window is a few instructions wide.
    @Test("callbacks and a reader racing a step's one-add resolution all see it, 10,000 times")
    func callbacksRacingUncontendedResolution() {
        let repetitions = 10_000
        let plain = (0..<repetitions).map { _ in Promise<Int, Never>() }
        let failing = (0..<repetitions).map { _ in Promise<Int, TaggedError>() }
        // A map, a recover of a failure and a flatMap to a resolved future, made before the race.
        let children: [Future<Int, Never>] = (0..<repetitions).map { repetition in
            switch repetition % 3 {
            case 0: plain[repetition].future.map { $0 + 1 }
            case 1: failing[repetition].future.recover { $0.tag + 1 }
            default: plain[repetition].future.flatMap { Future(value: $0 + 1) }
            }
        }
        let ran = (0..<repetitions).map { _ in CallCounter() }
        let registered = (0..<repetitions).map { _ in CallCounter() }
        let wrongValues = CallCounter()
        let read = (0..<repetitions).map { _ in LockedBox<Int?>(nil) }
        raceOnThreads(3, repetitions: repetitions) { repetition, thread in
            let child = children[repetition]
            switch thread {
            case 0:
                if repetition % 3 == 1 {
                    failing[repetition].fail(TaggedError(tag: repetition))
                } else {
                    plain[repetition].succeed(repetition)
                }
            case 1:
                var resolvedSeen = false
                while !resolvedSeen, registered[repetition].value < 100_000 {
                    resolvedSeen = child.isResolved
                    registered[repetition].increment()
                    child.onSuccess { value in
                        if value != repetition + 1 { wrongValues.increment() }
                        ran[repetition].increment()
                    }
                }
            default:
                let value = child.value
                read[repetition].withLock { $0 = value }
            }
        }
        #expect(wrongValues.value == 0)
        for repetition in 0..<repetitions {
            #expect(ran[repetition].value == registered[repetition].value, "repetition \(repetition)")
            #expect(read[repetition].withLock { $0 } == repetition + 1, "repetition \(repetition)")
        }
    }

    /// A lazy future whose error type cannot be cancelled is published from `running` with one
    /// add (`_finishRunning(succeeded:cancellable:)`): no other thread can move its phase. The
    /// flags that callbacks and readers set while the work runs must survive that add. Two threads
    /// read the future (one claims and runs the work, the other waits, in either order) while a
    /// third registers callbacks until it sees it resolved. Half the futures succeed and half
    /// fail with a typed error, so that both increments are used.
    @Test("callbacks and readers racing a lazy runner's one-add publication all see it, 10,000 times")
    func callbacksRacingRunnerPublication() {
        let repetitions = 10_000
        let futures: [LazyFuture<Int, TaggedError>] = (0..<repetitions).map { repetition in
            LazyFuture { () throws(TaggedError) -> Int in
                // A little work, so that registrations and waits land while it runs.
                var total = 0
                for step in 0..<(repetition % 50) { total &+= step }
                withExtendedLifetime(total) {}
                if repetition.isMultiple(of: 2) { throw TaggedError(tag: repetition) }
                return repetition
            }
        }
        let ran = (0..<repetitions).map { _ in CallCounter() }
        let registered = (0..<repetitions).map { _ in CallCounter() }
        let wrongOutcomes = CallCounter()
        let read = (0..<repetitions).map { _ in (0..<2).map { _ in LockedBox<Result<Int, TaggedError>?>(nil) } }
        let expected: @Sendable (Int) -> Result<Int, TaggedError> = { repetition in
            repetition.isMultiple(of: 2) ? .failure(TaggedError(tag: repetition)) : .success(repetition)
        }
        raceOnThreads(3, repetitions: repetitions) { repetition, thread in
            let future = futures[repetition]
            if thread == 2 {
                var resolvedSeen = false
                while !resolvedSeen, registered[repetition].value < 100_000 {
                    resolvedSeen = future.isResolved
                    registered[repetition].increment()
                    future.onComplete { result in
                        if result != expected(repetition) { wrongOutcomes.increment() }
                        ran[repetition].increment()
                    }
                }
            } else {
                let result = future.result
                read[repetition][thread].withLock { $0 = result }
            }
        }
        #expect(wrongOutcomes.value == 0)
        for repetition in 0..<repetitions {
            #expect(ran[repetition].value == registered[repetition].value, "repetition \(repetition)")
            for reader in 0..<2 {
                #expect(read[repetition][reader].withLock { $0 } == expected(repetition), "repetition \(repetition)")
            }
        }
    }

    @Test("callbacks on a queue run on that queue")
    func callbacksOnQueue() {
        let key = DispatchSpecificKey<Int>()
        let queue = DispatchQueue(label: "callback-test")
        queue.setSpecific(key: key, value: 7)
        let done = DispatchSemaphore(value: 0)
        let seen = LockedBox<[Int?]>([])
        let future = BackgroundFuture { 1 }
        future.onComplete(on: .queue(queue)) { _ in
            seen.withLock { $0.append(DispatchQueue.getSpecific(key: key)) }
            done.signal()
        }
        done.wait()
        future.onSuccess(on: .queue(queue)) { _ in
            seen.withLock { $0.append(DispatchQueue.getSpecific(key: key)) }
            done.signal()
        }
        done.wait()
        #expect(seen.withLock { $0 } == [7, 7])
    }

    @Test("a custom context receives every callback")
    func customContext() {
        let handed = CallCounter()
        let context = ExecutionContext { work in handed.increment(); work() }
        let promise = Promise<Int, Never>()
        let ran = CallCounter()
        promise.future.onComplete(on: context) { _ in ran.increment() }
        promise.succeed(1)
        promise.future.onComplete(on: context) { _ in ran.increment() }
        #expect(handed.value == 2)
        #expect(ran.value == 2)
    }

    @Test("adding a callback does not start a lazy future")
    func callbacksDoNotStartLazyWork() {
        let runs = CallCounter()
        let lazy = LazyFuture { runs.increment(); return 1 }
        let called = CallCounter()
        lazy.onComplete { _ in called.increment() }
        #expect(runs.value == 0)
        #expect(lazy.value == 1)
        #expect(called.value == 1)
    }
}
