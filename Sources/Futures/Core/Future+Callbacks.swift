// `.main` as a callback's context names the main actor (a `@MainActor` closure): the
// `ExecutionContext` overloads are `@_disfavoredOverload` so that `.main` picks it.

extension Future {
    /// Calls `callback` with the result once the future resolves, on `context`.
    ///
    /// The callback runs exactly once, added before or after resolution, from any thread. On
    /// `.immediate` (the default) it runs on the resolving thread, or at once if resolved (after
    /// the callbacks this thread is still running, if any). It never starts a lazy future's work.
    ///
    /// ```swift
    /// download.onComplete(on: .queue(logQueue)) { result in
    ///     switch result {
    ///     case .success(let data): log("\(data.count) bytes")
    ///     case .failure(let error): log("failed: \(error)")
    ///     }
    /// }
    /// ```
    /// - Parameters:
    ///   - context: Where the callback runs.
    ///   - callback: Receives the result.
    /// - Returns: This future, to chain more callbacks.
    @_disfavoredOverload
    @discardableResult
    public func onComplete(
        on context: ExecutionContext = .immediate,
        _ callback: @escaping @Sendable (Result<Value, Failure>) -> Void
    ) -> Self {
        guard !context._runsAtOnce else { return onComplete(callback) }
        _addResolutionCallbackForGood { future in
            let result = Self._resolvedResult(of: future)
            context.execute { callback(result) }
        }
        return self
    }

    /// Calls `callback` with the value if the future succeeds, on `context`.
    ///
    /// ```swift
    /// thumbnail.onSuccess(on: .global()) { cache.store($0) }
    /// ```
    /// - Parameters:
    ///   - context: Where the callback runs.
    ///   - callback: Receives the value.
    /// - Returns: This future, to chain more callbacks.
    @_disfavoredOverload
    @discardableResult
    public func onSuccess(
        on context: ExecutionContext = .immediate,
        _ callback: @escaping @Sendable (Value) -> Void
    ) -> Self {
        guard !context._runsAtOnce else { return onSuccess(callback) }
        _addResolutionCallbackForGood { future in
            if case .success(let value) = Self._resolvedResult(of: future) { context.execute { callback(value) } }
        }
        return self
    }

    /// Calls `callback` with the error if the future fails, on `context`.
    ///
    /// ```swift
    /// upload.onFailure(on: .queue(logQueue)) { error in log.error("upload failed: \(error)") }
    /// ```
    /// - Parameters:
    ///   - context: Where the callback runs.
    ///   - callback: Receives the error.
    /// - Returns: This future, to chain more callbacks.
    @_disfavoredOverload
    @discardableResult
    public func onFailure(
        on context: ExecutionContext = .immediate,
        _ callback: @escaping @Sendable (Failure) -> Void
    ) -> Self {
        guard !context._runsAtOnce else { return onFailure(callback) }
        _addResolutionCallbackForGood { future in
            if case .failure(let error) = Self._resolvedResult(of: future) { context.execute { callback(error) } }
        }
        return self
    }

    /// Calls `callback` with the result once the future resolves, on the main actor.
    ///
    /// `callback` may touch main-actor state. It runs once, as a job on the main queue.
    ///
    /// ```swift
    /// download.onComplete(on: .main) { result in
    ///     switch result {
    ///     case .success(let data): model.image = Image(data)
    ///     case .failure(let error): model.error = error
    ///     }
    /// }
    /// ```
    /// - Parameters:
    ///   - mainActor: `.main`.
    ///   - callback: Receives the result, on the main actor.
    /// - Returns: This future, to chain more callbacks.
    @discardableResult
    public func onComplete(
        on mainActor: MainActorContext,
        _ callback: @escaping @MainActor @Sendable (Result<Value, Failure>) -> Void
    ) -> Self {
        _addResolutionCallbackForGood { future in
            let result = Self._resolvedResult(of: future)
            mainActor.execute { callback(result) }
        }
        return self
    }

    /// Calls `callback` with the value if the future succeeds, on the main actor.
    ///
    /// ```swift
    /// thumbnail.onSuccess(on: .main) { imageView.image = $0 }
    /// ```
    /// - Parameters:
    ///   - mainActor: `.main`.
    ///   - callback: Receives the value, on the main actor.
    /// - Returns: This future, to chain more callbacks.
    @discardableResult
    public func onSuccess(
        on mainActor: MainActorContext,
        _ callback: @escaping @MainActor @Sendable (Value) -> Void
    ) -> Self {
        _addResolutionCallbackForGood { future in
            if case .success(let value) = Self._resolvedResult(of: future) { mainActor.execute { callback(value) } }
        }
        return self
    }

    /// Calls `callback` with the error if the future fails, on the main actor.
    ///
    /// ```swift
    /// upload.onFailure(on: .main) { statusLabel.text = "upload failed: \($0)" }
    /// ```
    /// - Parameters:
    ///   - mainActor: `.main`.
    ///   - callback: Receives the error, on the main actor.
    /// - Returns: This future, to chain more callbacks.
    @discardableResult
    public func onFailure(
        on mainActor: MainActorContext,
        _ callback: @escaping @MainActor @Sendable (Failure) -> Void
    ) -> Self {
        _addResolutionCallbackForGood { future in
            if case .failure(let error) = Self._resolvedResult(of: future) { mainActor.execute { callback(error) } }
        }
        return self
    }
}

// Context-free overloads for the common call: a defaulted `ExecutionContext.immediate` argument
// retained and released the process-wide scheduler on every call (gated: callback on a pending promise). Each
// registers one closure that reads the result, not a closure wrapped in another.
extension Future {
    /// Calls `callback` with the result once the future resolves, on the thread that resolves it:
    /// ``onComplete(on:_:)-(ExecutionContext,_)`` on ``ExecutionContext/immediate``, the default.
    ///
    /// ```swift
    /// download.onComplete { result in log("download finished: \(result)") }
    /// ```
    /// - Parameter callback: Receives the result.
    /// - Returns: This future, to chain more callbacks.
    @discardableResult
    @inlinable
    public func onComplete(_ callback: @escaping @Sendable (Result<Value, Failure>) -> Void) -> Self {
        _addResolutionCallbackForGood { future in callback(Self._resolvedResult(of: future)) }
        return self
    }

    /// Calls `callback` with the value if the future succeeds, on the thread that resolves it:
    /// ``onSuccess(on:_:)-(_,(Value)->Void)`` on ``ExecutionContext/immediate``, the default.
    ///
    /// ```swift
    /// thumbnail.onSuccess { cache.store($0) }
    /// ```
    /// - Parameter callback: Receives the value.
    /// - Returns: This future, to chain more callbacks.
    @discardableResult
    @inlinable
    public func onSuccess(_ callback: @escaping @Sendable (Value) -> Void) -> Self {
        _addResolutionCallbackForGood { future in
            if case .success(let value) = Self._resolvedResult(of: future) { callback(value) }
        }
        return self
    }

    /// Calls `callback` with the error if the future fails, on the thread that resolves it:
    /// ``onFailure(on:_:)-(_,(Failure)->Void)`` on ``ExecutionContext/immediate``, the default.
    ///
    /// ```swift
    /// upload.onFailure { error in log.error("upload failed: \(error)") }
    /// ```
    /// - Parameter callback: Receives the error.
    /// - Returns: This future, to chain more callbacks.
    @discardableResult
    @inlinable
    public func onFailure(_ callback: @escaping @Sendable (Failure) -> Void) -> Self {
        _addResolutionCallbackForGood { future in
            if case .failure(let error) = Self._resolvedResult(of: future) { callback(error) }
        }
        return self
    }

    /// The result of `future`, resolved and of this type, as a handed-over callback reads it.
    @inlinable @inline(__always)
    static func _resolvedResult(of future: _FutureCore) -> Result<Value, Failure> {
        unsafeDowncast(future, to: Future<Value, Failure>.self)._result
    }
}

extension ExecutionContext {
    /// Whether this is ``immediate``: the callback is called at once, with no closure to hand over.
    var _runsAtOnce: Bool { scheduler === ExecutionContext.immediate.scheduler }
}
