import Foundation

/// A one-way gate: threads wait at it until a test opens it, and once open it stays open.
///
/// Tests use it to hold work at a known point ("the work has started but cannot finish") so
/// that they order events without sleeping.
package final class Gate: @unchecked Sendable {
    // @unchecked: `isOpen` is read and written only while `condition` is locked.
    private let condition = NSCondition()
    private var isOpen = false

    package init() {}

    /// Opens the gate and wakes every thread waiting at it.
    package func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks until the gate is open.
    package func wait() {
        condition.lock()
        // Looked at again every second: a lost wake-up costs a second, never a hang.
        while !isOpen { _ = condition.wait(until: Date(timeIntervalSinceNow: 1)) }
        condition.unlock()
    }
}

/// A counting signal that one thread sends and another waits for.
///
/// The wait has a generous safety limit so that a broken engine fails the test instead of
/// hanging the run; it is never a timing assertion.
package final class Signal: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    package init() {}

    /// Sends one signal.
    package func send() { semaphore.signal() }

    /// Waits for one signal. Returns `false` only if none came within `limit` (stretched under
    /// the sanitizers: `hangLimit`), which a test treats as "never".
    package func wait(limit: Duration = .seconds(60)) -> Bool {
        let (seconds, attoseconds) = hangLimit(limit).components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        return semaphore.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success
    }
}
