import Foundation

/// A thread-safe counter: how many times a closure ran, from whatever threads ran it.
public final class Tally: @unchecked Sendable {
    // @unchecked: `count` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var count = 0

    /// Makes a tally at zero.
    public init() {}

    /// Adds one.
    public func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    /// The count so far.
    public var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

/// Stops the page with `message` if `condition` is false: how a page checks what it claims.
///
/// Unlike `precondition`, the message is printed in optimized builds too.
public func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("check failed: \(message())") }
}
