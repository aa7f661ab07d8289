import Synchronization

extension Future {
    /// The value, suspending the calling task until the future resolves.
    ///
    /// This is the read to use from async code: it registers a callback and suspends, so no
    /// thread of Swift's cooperative pool is parked. A lazy future's work is started on the
    /// global context, not on the calling task's thread.
    ///
    /// Where `Failure` is `any Error`, the wait is cancellable: if the calling task is cancelled
    /// while it waits (or before), `get()` throws `CancellationError` at once. That waiter stops;
    /// the future goes on, and other readers still get its result (to cancel the work, call
    /// ``cancel()``). A future that has already resolved gives its result even in a cancelled
    /// task: only waiting is cancelled. For any other `Failure`, `get()` cannot throw
    /// `CancellationError` and waits until the future resolves; ``cancellableResult()`` is the
    /// cancellable wait for those.
    ///
    /// A pending future keeps what its readers left with it: each waiting `get()` keeps one
    /// small callback on the future until it resolves. A cancelled wait takes its callback back
    /// at once, so tasks that give up waiting on a slow future leave nothing behind.
    ///
    /// ```swift
    /// let image = BackgroundFuture { decode(bytes) }           // Future<Image, Never>
    /// let shown = await image.get()
    ///
    /// let profile = BackgroundFuture { try api.profile(for: id) }   // Future<Profile, any Error>
    /// let task = Task { try await profile.get() }
    /// task.cancel()            // the task's wait ends with CancellationError; the load goes on
    /// ```
    /// - Throws: The work's error, typed as `Failure`; where `Failure` is `any Error`, also
    ///   `CancellationError` if the calling task is cancelled before the future resolves.
    @inlinable
    public func get() async throws(Failure) -> Value {
        // The read path in line, compiled for the caller's types: a future resolved with a value
        // is read without a call or a metadata lookup.
        if let value = _successOnTheReadPath { return value }
        return try await _getAfterTheReadPath()
    }

    /// `get()` after the read path found no value: a failure, a cancellation, or a wait.
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
            // One closure, on the future as the parking lot hands it over (as in `_allConnected`).
            _addResolutionCallback { future in continuation.resume(returning: Self._resolvedResult(of: future)) }
        }
        AsyncReaders.suspended.subtract(1, ordering: .relaxed)
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
    @inlinable
    public func cancellableResult() async throws(CancellationError) -> Result<Value, Failure> {
        // The read path in line, as in `get()`.
        if let value = _successOnTheReadPath { return .success(value) }
        return try await _cancellableResultAfterTheReadPath()
    }

    /// `cancellableResult()` after the read path found no value.
    @usableFromInline
    func _cancellableResultAfterTheReadPath() async throws(CancellationError) -> Result<Value, Failure> {
        if let result = _resolvedResult { return result }
        guard let result = await _resultUnlessCancelled() else { throw CancellationError() }
        return result
    }

    /// The result, or `nil` if the calling task is cancelled before the future resolves.
    private func _resultUnlessCancelled() async -> Result<Value, Failure>? {
        if Task.isCancelled { return nil }
        _startWithoutBlocking()
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

/// The tasks suspended in a wait of ``Future/get()`` or ``Future/cancellableResult()`` now, for
/// ``FutureDiagnostics/waitingFutures()``'s readers and hang reports: a count, changed only on
/// the slow path of a read that suspends.
enum AsyncReaders {
    static let suspended = Atomic<Int>(0)
}

/// One cancellable wait of `cancellableResult()`: whichever of the future's resolution and the
/// task's cancellation comes first resumes the task; the other finds nothing to do.
///
/// A cancellation also takes the wait's callback back from the future (`keep(_:)`): the parking
/// lot held it, with this object, until the future resolved, so every task that gave up waiting
/// on one slow future left a few hundred bytes behind until that future resolved, if ever.
final class CancellableWait<Outcome: Sendable>: Sendable {
    enum State {
        case idle
        /// The task's continuation, and the callback that resumes it once it is parked.
        case waiting(UnsafeContinuation<Outcome?, Never>, CallbackRegistration?)
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
            state = .waiting(continuation, nil)
            return false
        }
        if cancelled { continuation.resume(returning: nil) }
        return !cancelled
    }

    /// Keeps `registration`, the callback that resumes the task, to take it back on cancellation;
    /// takes it back at once if the task was cancelled meanwhile.
    func keep(_ registration: CallbackRegistration?) {
        guard let registration else { return }
        let kept = state.withLock { state -> Bool in
            guard case .waiting(let continuation, nil) = state else { return false }
            state = .waiting(continuation, registration)
            return true
        }
        // Not kept: cancelled meanwhile, or already resumed by the callback (which then was
        // handed over, and there is nothing to take back).
        if !kept { _FutureCore.removeResolutionCallback(registration) }
    }

    /// Resumes the task with the future's outcome, if it still waits.
    func resume(with outcome: Outcome) {
        take()?.resume(returning: outcome)
    }

    /// Resumes the task with `nil` (cancelled), if it still waits.
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
