import Synchronization

extension Future {
    /// The value, suspending the calling task until the future resolves.
    ///
    /// The read for async code: it registers a callback and suspends, parking no thread of the
    /// cooperative pool. A lazy future's work starts on the global context.
    ///
    /// Where `Failure` is `any Error`, a cancelled task stops waiting with `CancellationError`;
    /// the future goes on (``cancel()`` cancels it). Elsewhere use ``cancellableResult()``.
    ///
    /// ```swift
    /// let image = await BackgroundFuture { decode(bytes) }.get()   // Failure == Never: no `try`
    /// let profile = BackgroundFuture { try api.profile(for: id) }   // Future<Profile, any Error>
    /// let task = Task { try await profile.get() }
    /// task.cancel()            // the task's wait ends with CancellationError; the load goes on
    /// ```
    /// - Throws: The work's error, typed as `Failure`; where `Failure` is `any Error`, also
    ///   `CancellationError` if the calling task is cancelled before the future resolves.
    @inlinable
    public func get() async throws(Failure) -> Value {
        // Inline: a resolved value is read with no call or metadata lookup.
        if let value = _successOnTheReadPath { return value }
        return try await _getAfterTheReadPath()
    }

    /// A failure, a cancellation, or a wait.
    @usableFromInline
    func _getAfterTheReadPath() async throws(Failure) -> Value {
        if let result = _resolvedResult { return try result.get() }
        if _isCancellableType {
            guard let result = await _resultUnlessCancelled() else {
                throw (CancellationError() as any Error) as! Failure
            }
            return try result.get()
        }
        startWithoutBlocking()
        AsyncReaders.suspended.add(1, ordering: .relaxed)
        let result = await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<Value, Failure>, Never>) in
            // Untyped callback: one closure, no typed wrapper (as in `_allConnected`).
            _addResolutionCallback { future in continuation.resume(returning: Self._resolvedResult(of: future)) }
        }
        AsyncReaders.suspended.subtract(1, ordering: .relaxed)
        return try result.get()
    }

    /// The result, suspending the calling task until the future resolves or the task is
    /// cancelled, whichever comes first.
    ///
    /// The cancellable wait for any `Failure`: a cancelled task stops waiting and throws
    /// `CancellationError`; the future goes on. A resolved future gives its result even in a
    /// cancelled task. A lazy future's work starts on the global context.
    ///
    /// ```swift
    /// let index = LazyFuture { buildIndex(of: corpus) }            // Future<Index, Never>
    /// let value = try await index.cancellableResult().get()        // throws only CancellationError
    /// let config = BackgroundFuture { () throws(ConfigError) in try loadConfig() }
    /// let settings = try await config.cancellableResult().get()    // CancellationError or ConfigError
    /// ```
    /// - Returns: The future's result.
    /// - Throws: `CancellationError`, if the calling task is cancelled before the future resolves.
    @inlinable
    public func cancellableResult() async throws(CancellationError) -> Result<Value, Failure> {
        // Inline read path, as in `get()`.
        if let value = _successOnTheReadPath { return .success(value) }
        return try await _cancellableResultAfterTheReadPath()
    }

    @usableFromInline
    func _cancellableResultAfterTheReadPath() async throws(CancellationError) -> Result<Value, Failure> {
        if let result = _resolvedResult { return result }
        guard let result = await _resultUnlessCancelled() else { throw CancellationError() }
        return result
    }

    /// The result, or `nil` if the calling task is cancelled before the future resolves.
    private func _resultUnlessCancelled() async -> Result<Value, Failure>? {
        if Task.isCancelled { return nil }
        startWithoutBlocking()
        let wait = CancellableWait<Result<Value, Failure>>()
        AsyncReaders.suspended.add(1, ordering: .relaxed)
        defer { AsyncReaders.suspended.subtract(1, ordering: .relaxed) }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<Value, Failure>?, Never>) in
                if wait.install(continuation) {
                    wait.keep(_addResolutionCallback { future in wait.resume(with: Self._resolvedResult(of: future)) })
                }
            }
        } onCancel: {
            wait.cancel()
        }
    }
}

/// Tasks suspended in ``Future/get()`` or ``Future/cancellableResult()``, for
/// ``FutureDiagnostics/waitingFutures()`` and hang reports.
enum AsyncReaders {
    static let suspended = Atomic<Int>(0)
}

/// One cancellable wait: the first of resolution and cancellation resumes the task. A
/// cancellation also takes the callback back (`keep(_:)`), so abandoned waits on a slow future
/// leave nothing behind.
final class CancellableWait<Outcome: Sendable>: Sendable {
    enum State {
        case idle
        /// The task's continuation, and the callback that resumes it once it is parked.
        case waiting(UnsafeContinuation<Outcome?, Never>, CallbackRegistration?)
        case cancelledEarly
        case done
    }

    private let state = LockedBox(State.idle)

    /// `false` (and resumed with `nil`) if cancelled before.
    func install(_ continuation: UnsafeContinuation<Outcome?, Never>) -> Bool {
        let cancelled = state.withLock { state -> Bool in
            if case .cancelledEarly = state {
                state = .done
                return true
            }
            state = .waiting(continuation, nil)
            return false
        }
        if cancelled { continuation.resume(returning: nil) }
        return !cancelled
    }

    /// Kept to take back on cancellation; taken back at once if cancelled meanwhile.
    func keep(_ registration: CallbackRegistration?) {
        guard let registration else { return }
        let kept = state.withLock { state -> Bool in
            guard case .waiting(let continuation, nil) = state else { return false }
            state = .waiting(continuation, registration)
            return true
        }
        // Not kept: cancelled meanwhile, or already resumed (nothing then to take back).
        if !kept { _FutureCore.removeResolutionCallback(registration) }
    }

    func resume(with outcome: Outcome) { take()?.resume(returning: outcome) }

    func cancel() {
        let taken = state.withLock { state -> (UnsafeContinuation<Outcome?, Never>, CallbackRegistration?)? in
            switch state {
            case .idle:
                state = .cancelledEarly
                return nil
            case .waiting(let continuation, let registration):
                state = .done
                return (continuation, registration)
            case .cancelledEarly, .done:
                return nil
            }
        }
        guard let (continuation, registration) = taken else { return }
        continuation.resume(returning: nil)
        if let registration { _FutureCore.removeResolutionCallback(registration) }
    }

    private func take() -> UnsafeContinuation<Outcome?, Never>? {
        state.withLock { state in
            guard case .waiting(let continuation, _) = state else { return nil }
            state = .done
            return continuation
        }
    }
}
