import Dispatch

/// Runs work later without holding a thread meanwhile: a Dispatch timer, never a sleep.
enum DelayedWork {
    /// A scheduled piece of work that can be called off before it runs.
    final class Timer: @unchecked Sendable {
        // @unchecked: `source` is only written by `init`; a Dispatch source may be cancelled from
        // any thread.
        private let source: any DispatchSourceTimer

        fileprivate init(_ source: any DispatchSourceTimer) {
            self.source = source
        }

        /// Calls the work off if it has not run; Dispatch then lets go of it, and of all it
        /// captured, at once instead of at the deadline. Harmless after it ran.
        func cancel() {
            source.cancel()
        }
    }

    /// Runs `work` on Dispatch's global queue once `delay` has passed. A zero or negative delay
    /// runs it soon, on that queue; a delay too long for Dispatch never runs it (and keeps
    /// nothing).
    ///
    /// - Returns: The timer, to cancel the work if it is no longer wanted: a timer that cannot
    ///   be cancelled (`asyncAfter`) kept its work, and what that work held, until the deadline,
    ///   however early the race it served was decided. `nil` if the work never runs.
    @discardableResult
    static func after(_ delay: Duration, _ work: @escaping @Sendable () -> Void) -> Timer? {
        let interval = delay.dispatchInterval
        guard interval != .never else { return nil }
        let source = DispatchSource.makeTimerSource(queue: .global())
        source.schedule(deadline: .now() + interval)
        // The handler holds the source until the timer fires or is cancelled: Dispatch does not
        // keep an armed source alive on its own. Cancelling, here after the work has run or by
        // the owner of the `Timer`, makes Dispatch release the handler, and with it the source.
        source.setEventHandler { [source] in
            work()
            source.cancel()
        }
        source.activate()
        return Timer(source)
    }
}
