/// A value guarded by a lock, for the few places that need mutual exclusion off the hot path.
///
/// It uses a pthread mutex (`PoolLock`) rather than `Synchronization.Mutex`: on Linux,
/// ThreadSanitizer does not see `Mutex`'s futex-based synchronization and reports races on
/// every value it guards (verified with a two-line program on Swift 6.3.1), which would hide
/// real races among false ones. Not `NSLock`, whose calls go through Foundation's class first.
final class LockedBox<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is read and written only inside `withLock`, while `lock` is held, and
    // `Value` is `Sendable`, so what leaves the lock may cross threads.
    private let lock = PoolLock(spinning: false)
    /// Exclusivity is not checked at run time: the lock already gives one thread at a time
    /// access (gated: `all` per input, bounded).
    @exclusivity(unchecked) private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        acquire()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// Takes the lock, trying again a few times before it sleeps on it: the sections it guards
    /// are short, and a thread that finds it taken gets it sooner by trying again than by
    /// sleeping in the kernel and being woken, a thread switch each way. In a bounded `all` of
    /// trivial jobs, two workers met on the run's lock at about every other job, and those sleeps
    /// were four in ten of the run's thread switches. No retries on a single core, where the
    /// holder cannot run while this thread tries.
    private func acquire() {
        if lock.tryLock() { return }
        for _ in 0..<EngineTiming.lockRetries where lock.tryLock() { return }
        lock.lock()
    }
}
