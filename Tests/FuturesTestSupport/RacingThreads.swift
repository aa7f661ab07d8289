import Foundation
import Synchronization

/// A fixed set of threads that run a body all at once, round after round.
///
/// Each round wakes every thread, lets them gather at a barrier, and releases them together so
/// that they really race for the same future; `race` returns when all of them have finished.
/// The threads live for the whole test, so hundreds of rounds cost no thread creation.
///
/// Two rules keep this scaffolding from being what hangs a soak run (docs/testing.md):
/// - No wait on the condition lasts for ever: each looks again after a second, so a wake-up lost
///   by the platform costs a second.
/// - No loop of `sched_yield`. The barrier spins for a moment, yields at most 16 times, then
///   sleeps a few microseconds between looks (`pauseBriefly()`): a thread that yields in a loop
///   beside busy processes is pushed behind them for minutes on Linux's scheduler.
package final class RacingThreads: @unchecked Sendable {
    // @unchecked: `round`, `body`, `finishedCount` and `isStopping` are read and written only
    // while `condition` is locked; `arrivedCount` is atomic; `stopped` is a semaphore.
    package let count: Int
    private let condition = NSCondition()
    private var round = 0
    private var body: (@Sendable (Int) -> Void)?
    private var finishedCount = 0
    private var isStopping = false
    private let arrivedCount = Atomic<Int>(0)
    private let stopped = DispatchSemaphore(value: 0)

    /// Starts `count` threads, idle until the first round.
    package init(count: Int) {
        self.count = count
        for index in 0..<count {
            let thread = Thread { [self] in loop(index: index) }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Runs `body(index)` on every thread at once, with `index` in `0..<count`, and returns
    /// when every call has returned.
    package func race(_ body: @escaping @Sendable (_ index: Int) -> Void) {
        condition.lock()
        self.body = body
        finishedCount = 0
        arrivedCount.store(0, ordering: .sequentiallyConsistent)
        round += 1
        condition.broadcast()
        while finishedCount < count { waitOnce() }
        self.body = nil
        condition.unlock()
    }

    /// Ends the threads and waits until they have exited. Call it once, at the end of a test.
    package func stop() {
        condition.lock()
        isStopping = true
        condition.broadcast()
        condition.unlock()
        for _ in 0..<count { stopped.wait() }
    }

    private func loop(index: Int) {
        var seenRound = 0
        while true {
            condition.lock()
            while round == seenRound && !isStopping { waitOnce() }
            if isStopping {
                condition.unlock()
                stopped.signal()
                return
            }
            seenRound = round
            let body = self.body!
            condition.unlock()

            // The barrier: nobody starts until everybody is awake and here.
            arrivedCount.add(1, ordering: .sequentiallyConsistent)
            Self.spinThenPause { arrivedCount.load(ordering: .sequentiallyConsistent) == count }
            body(index)

            condition.lock()
            finishedCount += 1
            if finishedCount == count { condition.broadcast() }
            condition.unlock()
        }
    }

    /// One wait on the condition, with `condition` locked: until a broadcast, or a second.
    private func waitOnce() {
        _ = condition.wait(until: Date(timeIntervalSinceNow: 1))
    }

    /// Looks at `isDone` until it holds: first in a short spin (the threads of a round gather
    /// within microseconds when they have cores), then between a few yields, then between short
    /// sleeps. The yields are few, and the thread sleeps on the condition between rounds, which
    /// gives it a fresh deadline: so they cannot pile up (`pauseBriefly()`).
    private static func spinThenPause(_ isDone: () -> Bool) {
        for _ in 0..<1_000 where isDone() { return }
        for _ in 0..<16 {
            if isDone() { return }
            sched_yield()
        }
        while !isDone() { pauseBriefly() }
    }
}

/// Gives the processor away for a few microseconds: a sleep, never `sched_yield`.
///
/// Linux's scheduler (EEVDF, since 6.6) moves a thread's deadline one time slice later at each
/// `sched_yield`, and a thread that does not sleep keeps every such push. A loop that yields
/// thousands of times pushes its thread behind every busy process: in a soak with one busy
/// process per core, threads that waited by yielding did not see what they waited for for
/// minutes (docs/testing.md). A sleep puts the thread back with a fresh deadline when it wakes.
package func pauseBriefly() {
    usleep(20)
}
