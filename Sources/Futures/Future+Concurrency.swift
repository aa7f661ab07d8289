extension Future {
    /// The value, suspending the calling task until the future resolves.
    ///
    /// This is the read to use from async code: it registers a callback and suspends, so no
    /// thread of Swift's cooperative pool is parked. A lazy future's work is started on the
    /// global context, not on the calling task's thread.
    ///
    /// ```swift
    /// let image = BackgroundFuture { decode(bytes) }
    /// let shown = try await image.get()
    /// ```
    /// - Throws: The work's error, typed as `Failure`.
    /// - Important: This overload, for futures whose `Failure` is not `any Error` (and for
    ///   generic code), waits until the future resolves even if the calling task is cancelled:
    ///   it cannot throw `CancellationError`. Where `Failure` is `any Error`, `get()` stops
    ///   waiting when the task is cancelled; for every other future, ``cancellableResult()``
    ///   does.
    public func get() async throws(Failure) -> Value {
        if let result = _resolvedResult { return try result.get() }
        _startWithoutBlocking()
        let result = await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<Value, Failure>, Never>) in
            _whenResolved { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// The result, suspending the calling task until the future resolves or the task is
    /// cancelled, whichever comes first.
    ///
    /// This is the cancellable wait for every kind of future, whatever its `Failure`. If the
    /// calling task is cancelled while it waits (or before), it stops waiting at once and
    /// throws `CancellationError`; the future itself goes on, and other readers still get its
    /// result. If the future has already resolved, its result is returned even in a cancelled
    /// task: only waiting is cancelled. A lazy future's work is started on the global context.
    ///
    /// ```swift
    /// let index = LazyFuture { buildIndex(of: corpus) }            // Future<Index, Never>
    /// let result = try await index.cancellableResult()             // throws only CancellationError
    /// let value = result.get()                                     // cannot fail: no `try`
    ///
    /// let config = BackgroundFuture { () throws(ConfigError) in try loadConfig() }
    /// let settings = try await config.cancellableResult().get()    // CancellationError or ConfigError
    /// ```
    /// - Returns: The future's result.
    /// - Throws: `CancellationError`, if the calling task is cancelled before the future resolves.
    public func cancellableResult() async throws(CancellationError) -> Result<Value, Failure> {
        if let result = _resolvedResult { return result }
        if Task.isCancelled { throw CancellationError() }
        _startWithoutBlocking()
        let wait = CancellableWait<Result<Value, Failure>>()
        let result = await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<Value, Failure>?, Never>) in
                if wait.install(continuation) {
                    _whenResolved { wait.resume(with: $0) }
                }
            }
        } onCancel: {
            wait.cancel()
        }
        guard let result else { throw CancellationError() }
        return result
    }
}

extension Future where Failure == any Error {
    /// The value, suspending the calling task until the future resolves; throws
    /// `CancellationError` as soon as the task is cancelled.
    ///
    /// Cancelling the task ends this wait only: the future goes on, and other readers still get
    /// its result (to cancel the future's work, call ``cancel()``). If the future has already
    /// resolved, its result is returned even in a cancelled task. No thread of the cooperative
    /// pool is parked; a lazy future's work is started on the global context.
    ///
    /// ```swift
    /// let profile = BackgroundFuture { try api.profile(for: id) }   // Future<Profile, any Error>
    /// let task = Task { try await profile.get() }
    /// task.cancel()            // the task's wait ends with CancellationError; the load goes on
    /// ```
    /// - Throws: The work's error, or `CancellationError` if the task is cancelled first.
    public func get() async throws -> Value {
        try await cancellableResult().get()
    }
}

/// One cancellable wait of `cancellableResult()`: whichever of the future's resolution and the
/// task's cancellation comes first resumes the task; the other finds nothing to do.
final class CancellableWait<Outcome: Sendable>: Sendable {
    enum State {
        case idle
        case waiting(UnsafeContinuation<Outcome?, Never>)
        case cancelledEarly
        case done
    }

    private let state = LockedBox(State.idle)

    /// Records the continuation; returns `false` (and resumes it with `nil`) if the task was
    /// cancelled before it got here.
    func install(_ continuation: UnsafeContinuation<Outcome?, Never>) -> Bool {
        let cancelled = state.withLock { state -> Bool in
            if case .cancelledEarly = state {
                state = .done
                return true
            }
            state = .waiting(continuation)
            return false
        }
        if cancelled { continuation.resume(returning: nil) }
        return !cancelled
    }

    /// Resumes the task with the future's outcome, if it still waits.
    func resume(with outcome: Outcome) {
        take()?.resume(returning: outcome)
    }

    /// Resumes the task with `nil` (cancelled), if it still waits.
    func cancel() {
        let continuation = state.withLock { state -> UnsafeContinuation<Outcome?, Never>? in
            switch state {
            case .idle:
                state = .cancelledEarly
                return nil
            case .waiting(let continuation):
                state = .done
                return continuation
            case .cancelledEarly, .done:
                return nil
            }
        }
        continuation?.resume(returning: nil)
    }

    private func take() -> UnsafeContinuation<Outcome?, Never>? {
        state.withLock { state in
            guard case .waiting(let continuation) = state else { return nil }
            state = .done
            return continuation
        }
    }
}
