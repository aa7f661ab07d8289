import Dispatch

/// Runs work later without holding a thread meanwhile: a Dispatch timer, never a sleep.
enum DelayedWork {
    final class Timer: @unchecked Sendable {
        // @unchecked: `source` is only written by `init`; a Dispatch source may be cancelled from
        // any thread.
        private let source: any DispatchSourceTimer

        fileprivate init(_ source: any DispatchSourceTimer) { self.source = source }

        /// Releases the work and its captures at once, not at the deadline. Harmless after it ran.
        func cancel() { source.cancel() }
    }

    /// Runs `work` on the global queue after `delay` (soon if not positive).
    /// - Returns: A timer to cancel with (unlike `asyncAfter`, which holds the work until the
    ///   deadline); `nil` if the delay is too long for Dispatch and the work never runs.
    @discardableResult
    static func after(_ delay: Duration, _ work: @escaping @Sendable () -> Void) -> Timer? {
        let interval = delay.dispatchInterval
        guard interval != .never else { return nil }
        let source = DispatchSource.makeTimerSource(queue: .global())
        source.schedule(deadline: .now() + interval)
        // The handler keeps the armed source alive (Dispatch does not); cancelling releases both.
        source.setEventHandler { [source] in
            work()
            source.cancel()
        }
        source.activate()
        return Timer(source)
    }
}
