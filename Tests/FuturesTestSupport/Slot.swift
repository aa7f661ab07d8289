import Foundation

/// A slot filled after creation: how a future's work gets hold of the future itself.
package final class Slot<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `stored` is read and written only while `lock` is held. An `NSLock`, not
    // `Synchronization.Mutex`: on Linux, ThreadSanitizer does not see `Mutex`'s futex and would
    // report a race on the value it guards. (Not the test targets' `Locked`: FuturesAppsTests
    // sees FuturesApps' own `Locked`, and a second one here would make the name ambiguous there.)
    private let lock = NSLock()
    private var stored: Value?

    package init() {}

    package var value: Value? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            stored = newValue
        }
    }
}
