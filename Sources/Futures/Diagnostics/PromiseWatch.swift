#if DEBUG
    /// What every copy of a ``Promise`` holds in debug builds, to report the last copy going while
    /// its future is pending and awaitable. Release builds hold the future alone.
    final class PromiseWatch<Value: Sendable, Failure: Error>: @unchecked Sendable {
        // @unchecked: `future` is written only by `init`; `var` so `deinit` (no other thread can reach
        // this object) can ask whether its reference is the last.
        private(set) var future: Future<Value, Failure>

        init(_ future: Future<Value, Failure>) { self.future = future }

        deinit {
            guard !isCompleted else { return }
            // Nobody can wait for an unreferenced future without callbacks: dropping it is no hang.
            let couldBeAwaited = !isKnownUniquelyReferenced(&future) || future._word.hasCallbacks
            guard couldBeAwaited, !isCompleted else { return }
            let failure = _isAnyError(Failure.self) ? "any Error" : "\(Failure.self)"
            let promise = "Promise<\(Value.self), \(failure)>"
            let site = future._creationSite
            FutureDiagnostics.send(
                FutureDiagnostics.Report(
                    problem: .promiseDroppedWhilePending, future: promise, creationSite: site,
                    description: "\(promise) created at \(site) was dropped without being completed: its future stays "
                        + "pending, and every reader, callback and future derived from it waits for ever. Complete "
                        + "every promise (succeed, fail or complete(with:)) before its last copy goes."))
        }

        /// Someone won the right to resolve. Not `_isResolved`: a completion losing to `cancel()` returns
        /// while the canceller is still `completing`, and the report would be false. A promise never
        /// returns to `pending` (and is never `running`).
        private var isCompleted: Bool { future._word.phase != .pending }
    }
#endif
