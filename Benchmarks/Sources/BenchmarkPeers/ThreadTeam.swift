import Foundation
import Synchronization

/// A fixed team of threads that run the same body together, for contention measurements.
///
/// `run(iterations:)` releases every thread at once and returns when all have run the body;
/// the threads live as long as the team, so a measurement pays no thread creation. It also
/// returns the CPU time the members spent in the body: unlike wall time, it does not grow when
/// other processes take a core away, but it does when the members fight over a cache line.
public final class ThreadTeam: @unchecked Sendable {
    // @unchecked: `iterations` and `stopping` are written by the coordinating thread before it
    // signals `start`, and read by the members after `start.wait()`, which orders them.
    private let start = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let size: Int
    private var iterations = 0
    private var stopping = false
    private let cpuNanoseconds = Atomic<Int>(0)

    /// Starts `size` threads, each of which runs `body(iterations)` on every `run`.
    public init(size: Int, body: @escaping @Sendable (Int) -> Void) {
        self.size = size
        for index in 0..<size {
            let thread = Thread { [self] in
                while true {
                    start.wait()
                    if stopping { break }
                    let start = Self.threadCPUNanoseconds()
                    body(iterations)
                    cpuNanoseconds.wrappingAdd(Self.threadCPUNanoseconds() - start, ordering: .relaxed)
                    done.signal()
                }
                done.signal()
            }
            thread.name = "ThreadTeam-\(index)"
            thread.start()
        }
    }

    /// Runs the body on every member at once, `iterations` times each; returns when all are done.
    ///
    /// - Returns: The CPU time, in nanoseconds, that all members together spent in the body.
    @discardableResult
    public func run(iterations: Int) -> Int {
        self.iterations = iterations
        cpuNanoseconds.store(0, ordering: .relaxed)
        for _ in 0..<size { start.signal() }
        for _ in 0..<size { done.wait() }
        return cpuNanoseconds.load(ordering: .relaxed)
    }

    private static func threadCPUNanoseconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return time.tv_sec * 1_000_000_000 + time.tv_nsec
    }

    /// Ends the threads; the team cannot run again.
    public func stop() {
        stopping = true
        for _ in 0..<size { start.signal() }
        for _ in 0..<size { done.wait() }
    }
}
