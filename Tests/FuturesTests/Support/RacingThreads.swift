import Foundation
import Synchronization

/// A fixed set of threads that run a body all at once, round after round.
///
/// Each round wakes every thread, lets them gather at a barrier, and releases them together so
/// that they really race for the same future; `race` returns when all of them have finished.
/// The threads live for the whole test, so hundreds of rounds cost no thread creation.
final class RacingThreads: @unchecked Sendable {
    // @unchecked: `round`, `body`, `finishedCount` and `isStopping` are read and written only
    // while `condition` is locked; `arrivedCount` is atomic; `stopped` is a semaphore.
    let count: Int
    private let condition = NSCondition()
    private var round = 0
    private var body: (@Sendable (Int) -> Void)?
    private var finishedCount = 0
    private var isStopping = false
    private let arrivedCount = Atomic<Int>(0)
    private let stopped = DispatchSemaphore(value: 0)

    /// Starts `count` threads, idle until the first round.
    init(count: Int) {
        self.count = count
        for index in 0..<count {
            let thread = Thread { [self] in loop(index: index) }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Runs `body(index)` on every thread at once, with `index` in `0..<count`, and returns
    /// when every call has returned.
    func race(_ body: @escaping @Sendable (_ index: Int) -> Void) {
        condition.lock()
        self.body = body
        finishedCount = 0
        arrivedCount.store(0, ordering: .sequentiallyConsistent)
        round += 1
        condition.broadcast()
        while finishedCount < count { condition.wait() }
        self.body = nil
        condition.unlock()
    }

    /// Ends the threads and waits until they have exited. Call it once, at the end of a test.
    func stop() {
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
            while round == seenRound && !isStopping { condition.wait() }
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
            while arrivedCount.load(ordering: .sequentiallyConsistent) < count { sched_yield() }
            body(index)

            condition.lock()
            finishedCount += 1
            if finishedCount == count { condition.broadcast() }
            condition.unlock()
        }
    }
}
