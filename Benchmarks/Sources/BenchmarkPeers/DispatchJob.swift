import Dispatch

/// A job on `DispatchQueue.global()` whose result is read after a semaphore: the hand-written
/// way to run work in the background and wait for it.
public final class DispatchJob: @unchecked Sendable {
    // @unchecked: `result` is written by the job before `done.signal()` and read by `value`
    // only after `done.wait()` returns, which orders the two.
    private var result = 0
    private let done = DispatchSemaphore(value: 0)

    @inline(never)
    public init(_ work: @escaping @Sendable () -> Int) {
        DispatchQueue.global().async { [self] in
            result = work()
            done.signal()
        }
    }

    /// Waits for the job and returns its result. Call it once.
    public var value: Int {
        @inline(never) get {
            done.wait()
            return result
        }
    }
}
