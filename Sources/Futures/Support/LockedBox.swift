import Foundation

/// A value guarded by a lock, for the few places that need mutual exclusion off the hot path.
///
/// It uses `NSLock` (a pthread mutex) rather than `Synchronization.Mutex`: on Linux,
/// ThreadSanitizer does not see `Mutex`'s futex-based synchronization and reports races on
/// every value it guards (verified with a two-line program on Swift 6.3.1), which would hide
/// real races among false ones.
final class LockedBox<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is read and written only inside `withLock`, while `lock` is held, and
    // `Value` is `Sendable`, so what leaves the lock may cross threads.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
