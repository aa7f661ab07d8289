import Foundation
import Futures
import Synchronization

/// An execution context that keeps the work it is given until the test runs it: work handed to
/// it has "not started" for as long as the test likes.
final class HeldContext: Sendable {
    private let jobs = Locked<[@Sendable () -> Void]>([])
    private let handedOver = Atomic<Int>(0)

    /// The context to pass to a future.
    var context: ExecutionContext {
        ExecutionContext { [self] work in
            handedOver.add(1, ordering: .sequentiallyConsistent)
            jobs.withLock { $0.append(work) }
        }
    }

    /// How many pieces of work the context was given.
    var handedOverCount: Int { handedOver.load(ordering: .sequentiallyConsistent) }

    /// Runs, on the calling thread, every piece of work held so far.
    func runAll() {
        let held = jobs.withLock { jobs in
            defer { jobs = [] }
            return jobs
        }
        for job in held { job() }
    }
}

/// An execution context backed by exactly `threadCount` dedicated threads that take work in
/// the order it was given.
///
/// The context is made once and kept, as a program should keep its contexts: each context has
/// its own scheduling counters, so futures given to one context share its reader rule.
final class ThreadPoolContext: Sendable {
    let threadCount: Int
    let context: ExecutionContext
    private let jobs = JobQueue()
    private let stopped = DispatchSemaphore(value: 0)

    init(threadCount: Int) {
        self.threadCount = threadCount
        context = ExecutionContext { [jobs] work in jobs.append(work) }
        for _ in 0..<threadCount {
            let thread = Thread { [jobs, stopped] in
                while let job = jobs.next() { job() }
                stopped.signal()
            }
            thread.start()
        }
    }

    /// Lets the threads finish the work already given, then ends them and waits for them.
    func stop() {
        jobs.stop()
        for _ in 0..<threadCount { stopped.wait() }
    }

    /// The jobs given to the context, in order, and whether its threads should stop.
    private final class JobQueue: @unchecked Sendable {
        // @unchecked: `queue` and `isStopping` are read and written only while `condition` is locked.
        private let condition = NSCondition()
        private var queue: [@Sendable () -> Void] = []
        private var isStopping = false

        func append(_ work: @escaping @Sendable () -> Void) {
            condition.lock()
            queue.append(work)
            condition.signal()
            condition.unlock()
        }

        /// The next job, waiting for one; `nil` once stopping and empty.
        func next() -> (@Sendable () -> Void)? {
            condition.lock()
            defer { condition.unlock() }
            // Looked at again every second: a lost wake-up costs a second, never a hang.
            while queue.isEmpty && !isStopping { _ = condition.wait(until: Date(timeIntervalSinceNow: 1)) }
            return queue.isEmpty ? nil : queue.removeFirst()
        }

        func stop() {
            condition.lock()
            isStopping = true
            condition.broadcast()
            condition.unlock()
        }
    }
}
