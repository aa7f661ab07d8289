import Foundation
import Testing

@testable import Futures

/// `zip` of two futures that are not lazy, which has an implementation of its own
/// (`_ZipPairStep`): the same decisions as the zip of any number, and nothing kept once the zip
/// can never be decided.
@Suite("zip of two")
struct ZipPairTests {
    @Test("two pending futures give the pair, whichever resolves first")
    func pairOfPendingFutures() {
        for secondFirst in [false, true] {
            let first = Promise<Int, Never>()
            let second = Promise<String, Never>()
            let zipped = zip(first.future, second.future)
            if secondFirst { second.succeed("two") }
            #expect(!zipped.isResolved)
            first.succeed(1)
            if !secondFirst { second.succeed("two") }
            let (one, two) = zipped.value
            #expect(one == 1 && two == "two")
        }
    }

    @Test("the first's failure decides at once, and nothing stays parked on the second")
    func firstFailureDecidesAtOnce() {
        let first = Promise<Int, TaggedError>()
        let second = Promise<String, TaggedError>()
        let zipped = zip(first.future, second.future)
        #expect(second.future._parkedCallbackCount == 1)
        first.fail(TaggedError(tag: 1))
        #expect(zipped.isResolved)
        #expect(throws: TaggedError(tag: 1)) { try zipped.value }
        #expect(second.future._parkedCallbackCount == 0)
        second.succeed("late")
    }

    @Test("the second's failure waits for the first: the first by position wins")
    func secondFailureWaitsForTheFirst() {
        for firstFails in [false, true] {
            let first = Promise<Int, TaggedError>()
            let second = Promise<String, TaggedError>()
            let zipped = zip(first.future, second.future)
            second.fail(TaggedError(tag: 2))
            #expect(!zipped.isResolved)
            if firstFails { first.fail(TaggedError(tag: 1)) } else { first.succeed(1) }
            #expect(throws: TaggedError(tag: firstFails ? 1 : 2)) { try zipped.value }
        }
    }

    @Test("a zip of one future with itself gives its value twice")
    func zipOfTheSameFuture() {
        let promise = Promise<Int, Never>()
        let zipped = zip(promise.future, promise.future)
        promise.succeed(7)
        #expect(zipped.value == (7, 7))
        let resolved = Future<Int, Never>(value: 3)
        #expect(zip(resolved, resolved).value == (3, 3))
    }

    @Test("resolved sources give a zip resolved when it is made, failures by position")
    func resolvedSources() throws {
        let one = Future<Int, TaggedError>(value: 1)
        let two = Future<String, TaggedError>(value: "two")
        let failedFirst = Future<Int, TaggedError>(failure: TaggedError(tag: 1))
        let failedSecond = Future<String, TaggedError>(failure: TaggedError(tag: 2))
        let both = zip(one, two)
        #expect(both.isResolved)
        let pair = try both.value
        #expect(pair == (1, "two"))
        #expect(throws: TaggedError(tag: 1)) { try zip(failedFirst, failedSecond).value }
        #expect(throws: TaggedError(tag: 2)) { try zip(one, failedSecond).value }
    }

    @Test("a cancelled source makes the zip cancelled")
    func cancelledSource() {
        for cancelFirst in [false, true] {
            let first = Promise<Int, any Error>()
            let second = Promise<String, any Error>()
            let zipped = zip(first.future, second.future)
            if cancelFirst {
                first.future.cancel()
            } else {
                first.succeed(1)
                second.future.cancel()
            }
            #expect(zipped._isCancelled)
            #expect(throws: CancellationError.self) { try zipped.value }
        }
    }

    @Test("sources resolved at once on two threads decide by position, 2,000 times")
    func concurrentResolutions() {
        for round in 0..<2_000 {
            let first = Promise<Int, TaggedError>()
            let second = Promise<Int, TaggedError>()
            let zipped = zip(first.future, second.future)
            let firstFails = round % 3 == 0
            let secondFails = round % 2 == 0
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 {
                    if firstFails { first.fail(TaggedError(tag: 1)) } else { first.succeed(round) }
                } else {
                    if secondFails { second.fail(TaggedError(tag: 2)) } else { second.succeed(-round) }
                }
            }
            switch zipped.result(timeout: .seconds(30)) {
            case .success(let pair)?:
                #expect(!firstFails && !secondFails && pair == (round, -round))
            case .failure(let error)?:
                #expect(error == TaggedError(tag: firstFails ? 1 : 2) && (firstFails || secondFails))
            case nil:
                Issue.record("round \(round): the zip did not resolve")
                return
            }
        }
    }

    // MARK: Memory

    /// Makes a zip of two promises that only an `onComplete` keeps, runs `scenario` on the
    /// promises (each dropped when the scenario lets go of it), and returns what must be freed and
    /// the outcomes the callback saw.
    private func watchedZip(
        _ scenario: (consuming Promise<Int, TaggedError>?, consuming Promise<Int, TaggedError>?) -> Void
    ) -> (zip: WeakBox<_FutureCore>, canary: WeakBox<Canary>, outcomes: Locked<[Result<(Int, Int), TaggedError>]>) {
        let outcomes = Locked<[Result<(Int, Int), TaggedError>]>([])
        var first: Promise<Int, TaggedError>? = Promise()
        var second: Promise<Int, TaggedError>? = Promise()
        let (zipBox, canary) = withCanary { canary in
            let zipped = zip(first!.future, second!.future)
            zipped.onComplete { result in
                _ = canary.name
                outcomes.withLock { $0.append(result) }
            }
            return WeakBox<_FutureCore>(zipped)
        }
        scenario(first.take(), second.take())
        return (zipBox, canary, outcomes)
    }

    @Test("a zip whose first source is freed pending is freed, with its callbacks")
    func freedWhenTheFirstSourceIsFreed() {
        let watched = watchedZip { first, second in
            _ = consume first
            second?.succeed(2)
        }
        #expect(watched.zip.isReleased && watched.canary.isReleased)
        #expect(watched.outcomes.withLock { $0.isEmpty })
    }

    @Test("a zip whose second source is freed pending after the first succeeded is freed")
    func freedWhenTheSecondIsFreedAfterTheFirstSucceeded() {
        let watched = watchedZip { first, second in
            first?.succeed(1)
            _ = consume second
        }
        #expect(watched.zip.isReleased && watched.canary.isReleased)
        #expect(watched.outcomes.withLock { $0.isEmpty })
    }

    @Test("a zip whose second source is freed pending is freed once the first succeeds")
    func freedWhenTheFirstSucceedsAfterTheSecondWasFreed() {
        let watched = watchedZip { first, second in
            _ = consume second
            first?.succeed(1)
        }
        #expect(watched.zip.isReleased && watched.canary.isReleased)
        #expect(watched.outcomes.withLock { $0.isEmpty })
    }

    @Test("a zip whose second source is freed pending still fails with the first's failure")
    func firstFailureStillDecidesAfterTheSecondWasFreed() {
        let watched = watchedZip { first, second in
            _ = consume second
            first?.fail(TaggedError(tag: 1))
        }
        #expect(watched.outcomes.withLock { $0.count == 1 && (try? $0[0].get()) == nil })
        #expect(watched.zip.isReleased && watched.canary.isReleased)
    }

    @Test("a zip of a lazy future is lazy, keeps a source made in the call until it is read, and is freed")
    func lazyPair() {
        for read in [false, true] {
            let runs = CallCounter()
            var boxes: [WeakBox<Future<Int, Never>>] = []
            var zipBox: WeakBox<Future<(Int, Int), Never>>?
            do {
                let zipped: Future<(Int, Int), Never> = {
                    let lazy = LazyFuture {
                        runs.increment()
                        return 1
                    }
                    // Held by nothing but the zip, which only watches a source that is not lazy.
                    let resolved = Future<Int, Never>(value: 2)
                    boxes = [WeakBox(lazy), WeakBox(resolved)]
                    return zip(lazy, resolved)
                }()
                zipBox = WeakBox(zipped)
                #expect(runs.value == 0)
                #expect(!zipped.isResolved)
                #expect(!boxes[1].isReleased)
                if read {
                    let (one, two) = zipped.value
                    #expect(one == 1 && two == 2)
                    let again = zipped.value
                    #expect(again == (1, 2))
                }
            }
            #expect(runs.value == (read ? 1 : 0))
            #expect(zipBox?.isReleased ?? false, "read: \(read)")
            let sourcesReleased = boxes.allSatisfy(\.isReleased)
            #expect(sourcesReleased, "read: \(read)")
        }
    }

    @Test("a zip of a lazy future and a pending promise resolves when both have, from any order")
    func lazyAndPending() {
        for promiseFirst in [false, true] {
            let promise = Promise<String, TaggedError>()
            let zipped = zip(LazyFuture { () throws(TaggedError) -> Int in 1 }, promise.future)
            if promiseFirst { promise.succeed("two") }
            let reader = Thread { _ = try? zipped.value }
            reader.start()
            if !promiseFirst { promise.succeed("two") }
            let pair = try? zipped.value
            #expect(pair?.0 == 1 && pair?.1 == "two")
        }
    }

    @Test("a reader of a zip finds the lazy work of its second source, blocking or not")
    func secondSourceWalked() {
        // The first source is resolved: only a walk up the second finds work to run. Read on a
        // thread of its own, so that a reader that missed it fails the test instead of hanging it.
        let blocking = zip(Future<Int, Never>(value: 1), LazyFuture { 2 })
        let done = DispatchSemaphore(value: 0)
        Thread {
            _ = blocking.value
            done.signal()
        }.start()
        #expect(done.wait(timeout: .now() + 30) == .success, "the blocking reader did not run the second source")
        // A read that must not block starts the work on a context, found by the same walk.
        let started = zip(Future<Int, Never>(value: 1), LazyFuture { 2 })
        let pair = started.result(timeout: .seconds(30))
        if case .success(let value)? = pair {
            #expect(value == (1, 2))
        } else {
            Issue.record("the non-blocking read did not start the second source")
        }
    }

    @Test("a cancelled zip of two pending sources is freed, though its sources live on")
    func cancelledZipIsFreed() {
        // The zip's callbacks, taken back by the cancel, held the child until the zip was decided,
        // and nothing could decide it any more: the child and its step kept each other for ever.
        let first = Promise<Int, any Error>()
        let second = Promise<Int, any Error>()
        let box: WeakBox<_FutureCore> = {
            let zipped = zip(first.future, second.future)
            #expect(zipped.cancel())
            return WeakBox(zipped)
        }()
        #expect(box.isReleased, "a cancelled zip was kept")
        first.succeed(1)
        second.succeed(2)
        #expect(box.isReleased, "a cancelled zip was kept")
    }

    @Test("zips cancelled while their sources resolve on other threads are freed, and stay cancelled")
    func cancelledWhileTheSourcesResolve() {
        let boxes = Locked<[WeakBox<_FutureCore>]>([])
        for round in 0..<300 {
            let first = Promise<Int, any Error>()
            let second = Promise<Int, any Error>()
            let box: WeakBox<_FutureCore> = {
                let zipped = zip(first.future, second.future)
                DispatchQueue.concurrentPerform(iterations: 3) { index in
                    switch index {
                    case 0: _ = zipped.cancel()
                    case 1: if round % 2 == 0 { first.succeed(1) } else { first.fail(TaggedError(tag: 1)) }
                    default: second.succeed(2)
                    }
                }
                // Whoever won, the zip is resolved, and a second look finds the same outcome.
                #expect(zipped.isResolved)
                let outcome = zipped.result(timeout: .zero).map { result in (try? result.get()) != nil }
                #expect(outcome == zipped.result(timeout: .zero).map { result in (try? result.get()) != nil })
                return WeakBox(zipped)
            }()
            boxes.withLock { $0.append(box) }
        }
        #expect(eventually { boxes.withLock { $0.allSatisfy(\.isReleased) } })
    }

    @Test("zips whose second source is freed while the first succeeds on another thread are freed", arguments: [1, 4])
    func freedFromManyThreads(threads: Int) {
        let boxes = Locked<[WeakBox<_FutureCore>]>([])
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<250 {
                let first = Promise<Int, Never>()
                let second = Locked<Promise<Int, Never>?>(Promise())
                let box: WeakBox<_FutureCore> = {
                    let zipped = zip(first.future, second.withLock { $0!.future })
                    zipped.onSuccess { _ in Issue.record("a zip whose second source was freed succeeded") }
                    return WeakBox(zipped)
                }()
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 { first.succeed(1) } else { second.withLock { $0 = nil } }
                }
                boxes.withLock { $0.append(box) }
            }
        }
        #expect(eventually { boxes.withLock { $0.allSatisfy(\.isReleased) } })
    }
}
