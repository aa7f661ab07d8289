import Dispatch
import Foundation
import Testing

@testable import Futures

/// A `.queue(_:)` context's scheduler is held by ordinary references only (the context's copies,
/// the background futures queued on it, the threads counted as its runners), so it is freed once
/// they are all gone, whatever the interleaving of reads, runs and cancellations.
struct ContextSchedulerLifetimeTests {
    @Test(
        "a .queue context's scheduler is freed after its work, under many threads and repetitions",
        .hangGuard(minutes: 5))
    func queueSchedulerIsFreed() {
        let threads = 8
        let repetitions = 200
        let leaked = Locked(0)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<repetitions {
                let (queue, scheduler) = Self.runWorkOnAQueueContext()
                // The queue's own jobs are done once a job queued after them runs.
                queue.sync {}
                if !Self.isReleased(scheduler, within: .seconds(5)) { leaked.withLock { $0 += 1 } }
            }
        }
        #expect(leaked.withLock { $0 } == 0, "schedulers still alive after their work")
    }

    /// Makes a context on a queue of its own and runs work on it every way a program does: read
    /// by this thread (which may run it itself), left to the queue unread, cancelled before or
    /// while it runs, and mapped. Returns the queue and a weak reference to the scheduler, after
    /// every future and the context are gone.
    private static func runWorkOnAQueueContext() -> (DispatchQueue, WeakBox<ContextScheduler>) {
        let queue = DispatchQueue(label: "futures-tests.scheduler-lifetime")
        let context = ExecutionContext.queue(queue)
        let scheduler = WeakBox(context.scheduler)
        let read = BackgroundFuture(on: context) { 1 }
        let unread = BackgroundFuture(on: context) { 2 }
        let cancelled = BackgroundFuture(on: context) { () throws -> Int in 3 }
        let mapped = BackgroundFuture(on: context) { 4 }.map { $0 + 1 }
        _ = cancelled.cancel()
        _ = read.value
        _ = mapped.value
        _ = unread
        return (queue, scheduler)
    }

    private static func isReleased(_ scheduler: WeakBox<ContextScheduler>, within limit: Duration) -> Bool {
        let deadline = ContinuousClock.now + limit
        while !scheduler.isReleased {
            if ContinuousClock.now > deadline { return false }
            Thread.sleep(forTimeInterval: 0.001)
        }
        return true
    }
}
