import Dispatch

/// Runs work later without holding a thread meanwhile: a Dispatch timer, never a sleep.
enum DelayedWork {
    /// Runs `work` on Dispatch's global queue once `delay` has passed. A zero or negative delay
    /// runs it soon, on that queue; a delay too long for Dispatch never runs it.
    static func after(_ delay: Duration, _ work: @escaping @Sendable () -> Void) {
        let interval = delay.dispatchInterval
        guard interval != .never else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + interval, execute: work)
    }
}
