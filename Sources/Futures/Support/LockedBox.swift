/// A value guarded by a pthread mutex (`PoolLock`), not `Mutex`, whose futex synchronization
/// ThreadSanitizer on Linux does not see (false races everywhere), nor `NSLock` (class dispatch).
final class LockedBox<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is used only inside `withLock`, and `Value` is `Sendable`.
    private let lock = PoolLock(spinning: false)
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        acquire()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// Retries a few times before sleeping: the sections are short, and a retry beats a thread
    /// switch each way (gated: `all` per input, bounded). No retries on a single core.
    private func acquire() {
        if lock.tryLock() { return }
        for _ in 0..<EngineTiming.lockRetries where lock.tryLock() { return }
        lock.lock()
    }
}
