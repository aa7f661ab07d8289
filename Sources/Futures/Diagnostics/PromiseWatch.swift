#if DEBUG
    /// In debug builds, what every copy of a ``Promise`` holds: the promise's future, and, when the
    /// last copy goes, a look at whether it went pending while something could still wait for it.
    /// Release builds have no such object: a promise is its future alone.
    final class PromiseWatch<Value: Sendable, Failure: Error>: @unchecked Sendable {
        // @unchecked: `future` is only written by `init`; `var` only so that `deinit`, when no other
        // thread can reach this object, may ask whether its reference is the last one.
        private(set) var future: Future<Value, Failure>

        init(_ future: Future<Value, Failure>) {
            self.future = future
        }

        deinit {
            guard !isCompleted else { return }
            // Nothing else holds the future and no callback waits for it: nobody can wait for it, so
            // dropping it is not a hang (a promise made and abandoned with its future).
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

        /// Whether someone won the right to resolve the future: it is resolved, or being resolved.
        ///
        /// Not `_isResolved`: a completion that loses to a racing `cancel()` returns while the
        /// canceller may still be between winning (`completing`) and publishing `resolved`; if
        /// the completing side then dropped the last copy, `_isResolved` said "pending" and this
        /// reported a promise "dropped without being completed" whose future was about to resolve.
        /// A future leaves `pending` only for good (a promise has no work, so never `running`).
        private var isCompleted: Bool { future._word.phase != .pending }
    }
#endif
