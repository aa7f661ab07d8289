import Foundation

/// A value guarded by a lock: the counts of a progress (`ProgressTally`), the registry of
/// discardable futures (`MemoryPressureRelief`).
///
/// An `NSLock`, not `Synchronization.Mutex`: on Linux, ThreadSanitizer does not see `Mutex`'s
/// futex-based synchronization and would report a race on every value it guards, and the tests
/// count from many threads at once under it.
final class Locked<Value: Sendable>: @unchecked Sendable {
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
