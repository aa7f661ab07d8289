import Foundation
import Observation
import Testing

@testable import FuturesApps

@Suite("FutureProgress", .hangGuard(minutes: 2))
@MainActor
struct FutureProgressTests {
    @Test(
        "counts reach n of n with failed exact and no step lost, with futures resolved from many threads",
        arguments: [1, 2, 8, 64])
    func countsReachTotal(threads: Int) async {
        for _ in 0..<5 {
            let count = 2_000
            let promises = (0..<count).map { _ in Promise<Int, ParseError>() }
            let progress = FutureProgress(of: promises.map(\.future))
            #expect(progress.total == count)
            #expect(progress.completed == 0 && progress.failed == 0 && progress.fractionCompleted == 0)
            await onThreads(threads) { thread in
                for index in stride(from: thread, to: count, by: threads) {
                    if index.isMultiple(of: 7) {
                        promises[index].fail(.empty)
                    } else {
                        promises[index].succeed(index)
                    }
                }
            }
            await settle { progress.completed == count }
            let failures = (0..<count).count { $0.isMultiple(of: 7) }
            #expect(progress.completed == count)
            #expect(progress.failed == failures)
            #expect(progress.fractionCompleted == 1)
            #expect(progress.isFinished)
            #expect(progress.foundationProgress.completedUnitCount == Int64(count))
            #expect(progress.foundationProgress.totalUnitCount == Int64(count))
        }
    }

    @Test("counts only grow, change on the main queue, and settle at the total")
    func countsOnlyGrowOnTheMainQueue() async {
        let count = 500
        let loads = (0..<count).map { index in BackgroundFuture { index } }
        let progress = FutureProgress(of: loads)
        let recorder = CompletedRecorder(progress)
        recorder.track()
        for load in loads { _ = await load.get() }
        await settle { progress.isFinished }
        await drainMainQueue()
        let values = recorder.seen
        #expect(recorder.offMain.value == 0)
        #expect(values == values.sorted())
        #expect(progress.completed == count)
        #expect(progress.failed == 0)
    }

    @Test("a progress of no futures is finished at once")
    func emptyIsFinished() {
        let progress = FutureProgress(of: [Future<Int, Never>]())
        #expect(progress.total == 0)
        #expect(progress.fractionCompleted == 1)
        #expect(progress.isFinished)
    }

    @Test("tracking lazy futures does not start them; they count once something else runs them")
    func lazyFuturesAreNotStarted() async {
        let runs = Counter()
        let tables = (0..<10).map { index in LazyFuture { runs.increment() + index } }
        let progress = FutureProgress(of: tables)
        await drainMainQueue()
        #expect(runs.value == 0)
        #expect(progress.completed == 0)
        _ = await Future.all(tables).get()
        await settle { progress.completed == 10 }
        #expect(runs.value == 10)
        #expect(progress.completed == 10)
    }

    @Test("the bounded all reports n of n through track(_:), with many threads resolving", arguments: [1, 4, 16])
    func boundedAllReports(maxConcurrent: Int) async throws {
        let items = Array(0..<300)
        let progress = FutureProgress(total: items.count)
        let pages = Future.all(items, maxConcurrent: maxConcurrent) { item in
            progress.track(BackgroundFuture { () throws(ParseError) -> Int in item * 2 })
        }
        let values = try await pages.get()
        await settle { progress.completed == items.count }
        #expect(values == items.map { $0 * 2 })
        #expect(progress.completed == items.count)
        #expect(progress.failed == 0)
    }

    @Test("allSettled and completions over the same futures report through FutureProgress(of:)")
    func settledAndCompletionsReport() async {
        let loads = (0..<100).map { index in
            BackgroundFuture { () throws(ParseError) -> Int in
                if index.isMultiple(of: 10) { throw .badDigit(position: index) }
                return index
            }
        }
        let settledProgress = FutureProgress(of: loads)
        let streamProgress = FutureProgress(of: loads)
        let settled = await Future.allSettled(loads).get()
        var streamed = 0
        for await _ in Future.completions(of: loads) { streamed += 1 }
        await settle { settledProgress.completed == 100 && streamProgress.completed == 100 }
        #expect(settled.count == 100 && streamed == 100)
        for progress in [settledProgress, streamProgress] {
            #expect(progress.completed == 100)
            #expect(progress.failed == 10)
        }
    }

    @Test("cancelling the Foundation progress cancels the futures bound to it and no others", .hangGuard(minutes: 1))
    func foundationCancellationCancelsOnlyBoundFutures() async {
        let gate = Gate()
        let started = Signal()
        let unrelated = Promise<Int, any Error>()
        let items = Array(0..<20)
        let progress = FutureProgress(total: items.count + 1)
        progress.track(unrelated.future)
        let made = Counter()
        let inFlight = Locked([Future<Int, any Error>]())
        let pages = Future.all(items, maxConcurrent: 2) { item in
            made.increment()
            let page = BackgroundFuture { () throws -> Int in
                started.send()
                gate.wait()
                return item
            }
            inFlight.withLock { $0.append(page) }
            return progress.track(page)
        }
        progress.cancelOnProgressCancellation(pages)
        let bothStarted = await onPlainThread { started.wait() && started.wait() }
        #expect(bothStarted)
        // Foundation may call the cancellation handler after `cancel()` returns: wait for it.
        progress.foundationProgress.cancel()
        do {
            _ = try await pages.get()
            Issue.record("a cancelled fan-out succeeded")
        } catch {
            #expect(error is CancellationError)
        }
        #expect(pages.isCancelled)
        // The bounded all cancels its futures in flight from its own callback on `pages`, which
        // the cancelling thread (Foundation's handler) may still be running when `get()` has
        // already seen `pages` resolved: wait for it before the work may end (a ThreadSanitizer
        // run of CI opened the gate first, and one page succeeded).
        let inFlightCancelled = await onPlainThread {
            eventuallyHolds { inFlight.withLock { $0 }.allSatisfy(\.isCancelled) }
        }
        #expect(inFlightCancelled)
        gate.open()
        // The held futures were cancelled: their work ends when the gate opens, not before.
        await settle { progress.completed == 2 }
        #expect(made.value == 2)
        #expect(!unrelated.future.isResolved)
        #expect(progress.completed == 2)
        #expect(progress.failed == 2)
        unrelated.succeed(1)
        await settle { progress.completed == 3 }
        #expect(progress.completed == 3)
        // Bound after the cancellation: cancelled at once.
        let late = Promise<Int, any Error>()
        progress.cancelOnProgressCancellation(late.future)
        #expect(late.future.isCancelled)
    }

    @Test("a progress is freed while its futures are pending, and they resolve without it")
    func progressIsNotKeptAlive() async {
        let promise = Promise<Int, Never>()
        weak var weakProgress: FutureProgress?
        do {
            let progress = FutureProgress(of: [promise.future])
            weakProgress = progress
            #expect(weakProgress != nil)
        }
        #expect(weakProgress == nil)
        promise.succeed(1)
        await drainMainQueue()
    }

    @Test("tracking more futures than the total traps, naming the total")
    func trackingPastTheTotalTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let progress = FutureProgress(total: 1)
            progress.track(Future<Int, Never>(value: 1))
            progress.track(Future<Int, Never>(value: 2))
        }
        guard let result else { return }
        let errorText = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(errorText.contains("FutureProgress of total 1"))
        // The message points at the caller's line, not at a file inside Futures.
        #expect(errorText.contains("FuturesAppsTests/FutureProgressTests.swift:"))
        #expect(!errorText.contains("Futures/FutureProgress.swift") && !errorText.contains("Misuse.swift"))
    }

    @Test("a negative total traps at the caller's line")
    func negativeTotalTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = FutureProgress(total: -1)
        }
        guard let result else { return }
        let errorText = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(errorText.contains("FutureProgress(total:) needs a total of at least 0; it was given -1"))
        #expect(errorText.contains("FuturesAppsTests/FutureProgressTests.swift:"))
        #expect(!errorText.contains("Futures/FutureProgress.swift") && !errorText.contains("Misuse.swift"))
    }
}

/// Records every value of `completed` that observation reports, tracking again after each.
@MainActor
private final class CompletedRecorder {
    let progress: FutureProgress
    var seen: [Int] = []
    let offMain = Counter()

    init(_ progress: FutureProgress) {
        self.progress = progress
    }

    func track() {
        withObservationTracking {
            _ = progress.completed
        } onChange: { [offMain, weak self] in
            if !onMainQueue.isCurrent { offMain.increment() }
            // Weakly: the progress's registrar keeps this closure until its next change, which
            // never comes after the last one; a strong reference to the recorder, which holds the
            // progress, made a cycle that LeakSanitizer reported.
            Task { @MainActor in
                guard let self else { return }
                self.seen.append(self.progress.completed)
                self.track()
            }
        }
    }
}
