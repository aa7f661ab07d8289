import Dispatch
import Foundation

/// What a screen shows of futures: a progress over a fan-out, an observation of one future, and
/// a lazy value that gives its memory back.
struct FuturesInApps: Chapter {
    let title = "Futures in apps"
    let summary =
        "FutureProgress counts a fan-out as it resolves, future.observed() holds a future's result for "
        + "a view, both on the main actor; a DiscardableLazyFuture drops its value on demand (or under "
        + "memory pressure) and computes it again on the next read."

    func run(_ log: ChapterLog) {
        // A progress over twelve loads, one of which fails; the counts change on the main actor.
        let loads = (0..<12).map { index in
            BackgroundFuture { () throws -> Int in
                _ = log.timed(lane: index % 4, "load \(index)") { simulatedLoad("item \(index)", size: 1 << 14) }
                if index == 7 { throw CocoaError(.fileReadCorruptFile) }
                return index
            }
        }
        let progress = FutureProgress(of: loads)
        let observed = onMain { Future.all(loads).observed() }
        for load in loads { _ = load.result }
        let (completed, failed, fraction) = waitOnMain {
            progress.isFinished ? (progress.completed, progress.failed, progress.fractionCompleted) : nil
        }
        log.check(
            completed == 12 && failed == 1 && fraction == 1,
            "FutureProgress of 12 loads: \(completed) of \(progress.total) done, \(failed) failed, "
                + "fraction \(fraction)")
        let failedObservation = waitOnMain { observed.isPending ? nil : observed.error != nil }
        log.check(failedObservation, "observed() of all(loads): no longer pending, holds the failure")

        // A lazy value that gives its memory back: computed once for many readers, dropped, computed again.
        let renders = Counter()
        let page = DiscardableLazyFuture { () -> [UInt8] in
            renders.increment()
            return Array(repeating: 7, count: 1 << 16)
        }
        log.check(
            page.isContentDiscarded && renders.value == 0, "a DiscardableLazyFuture holds nothing before its first read"
        )
        DispatchQueue.concurrentPerform(iterations: 8) { _ in _ = page.value.count }
        log.check(renders.value == 1, "8 threads read it at once: it rendered once")
        log.check(page.discard() && page.isContentDiscarded, "discard() dropped the value")
        _ = page.value
        log.check(renders.value == 2, "the next read rendered it again")
        log.check(page.beginContentAccess(), "beginContentAccess() pins it")
        log.check(!page.discard() && !page.isContentDiscarded, "discard() does nothing while it is pinned")
        page.endContentAccess()
        log.check(page.discard(), "after endContentAccess() it can be dropped")
        log.say("on Apple platforms it is dropped under memory pressure too; on Linux only by discard()")
    }

    /// Runs `body` on the main actor and returns its result; the chapter runs on a thread of its own.
    private func onMain<R: Sendable>(_ body: @MainActor () -> R) -> R {
        DispatchQueue.main.sync { MainActor.assumeIsolated { body() } }
    }

    /// Looks on the main actor until `condition` gives a value, and returns it.
    private func waitOnMain<R: Sendable>(_ condition: @MainActor () -> R?) -> R {
        while true {
            if let value = onMain(condition) { return value }
            Thread.sleep(forTimeInterval: 0.002)
        }
    }
}
