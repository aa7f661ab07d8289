import Foundation

/// A value guarded by a lock, for test bookkeeping shared between threads.
///
/// It uses `NSLock` (a pthread mutex) rather than `Synchronization.Mutex`: on Linux `Mutex`
/// waits on a futex directly, which ThreadSanitizer does not see, so it reports races on
/// data that `Mutex` does guard.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
