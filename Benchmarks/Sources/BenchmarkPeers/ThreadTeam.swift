import Foundation

/// A fixed team of threads that run the same body together, for contention measurements.
///
/// `run(iterations:)` releases every thread at once and returns when all have run the body;
/// the threads live as long as the team, so a measurement pays no thread creation.
public final class ThreadTeam: @unchecked Sendable {
    // @unchecked: `iterations` and `stopping` are written by the coordinating thread before it
    // signals `start`, and read by the members after `start.wait()`, which orders them.
    private let start = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let size: Int
    private var iterations = 0
    private var stopping = false

    /// Starts `size` threads, each of which runs `body(iterations)` on every `run`.
    public init(size: Int, body: @escaping @Sendable (Int) -> Void) {
        self.size = size
        for index in 0..<size {
            let thread = Thread { [self] in
                while true {
                    start.wait()
                    if stopping { break }
                    body(iterations)
                    done.signal()
                }
                done.signal()
            }
            thread.name = "ThreadTeam-\(index)"
            thread.start()
        }
    }

    /// Runs the body on every member at once, `iterations` times each; returns when all are done.
    public func run(iterations: Int) {
        self.iterations = iterations
        for _ in 0..<size { start.signal() }
        for _ in 0..<size { done.wait() }
    }

    /// Ends the threads; the team cannot run again.
    public func stop() {
        stopping = true
        for _ in 0..<size { start.signal() }
        for _ in 0..<size { done.wait() }
    }
}
