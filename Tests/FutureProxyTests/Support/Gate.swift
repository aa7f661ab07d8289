import Dispatch

/// A one-way gate: threads that `wait` are held until someone calls `open`, then all pass.
final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    func open() { semaphore.signal() }

    /// Waits until the gate is open, and leaves it open for the next waiter.
    func wait() {
        semaphore.wait()
        semaphore.signal()
    }
}
