extension Future where Failure == any Error {
    /// Cancels the future: it resolves at once with `CancellationError`.
    ///
    /// Unstarted work never runs and is released; running work goes on (it can check
    /// ``Future/isCurrentWorkCancelled``) and its result is dropped. Blocked readers wake with the
    /// error, derived futures are cancelled too. A resolved future is left alone.
    ///
    /// ```swift
    /// let search = BackgroundFuture { () throws -> [Hit] in try index.search(query) }
    /// searchField.onChange { search.cancel() }
    /// ```
    /// - Returns: `true` if this call cancelled the future; `false` if it was already resolved.
    @discardableResult
    public func cancel() -> Bool {
        guard _complete(with: .failure(CancellationError()), cancelling: true) else { return false }
        _dropLinks()
        return true
    }

    /// Whether the future was resolved by ``cancel()``, its own or a source's. Never blocks.
    ///
    /// ```swift
    /// if search.isCancelled { clearResults() }
    /// ```
    public var isCancelled: Bool { _isCancelled }
}

extension Future {
    /// Rejects `cancel()` on a future whose error type is not `any Error`: see the message.
    ///
    /// ```swift
    /// LazyFuture { buildIndex() }.eraseFailure().cancel()   // cancels the erased future
    /// ```
    /// - Returns: Never returns.
    @available(
        *, unavailable,
        message:
            "only a future whose error type is 'any Error' can be cancelled, because cancelling resolves it with CancellationError; make it with a closure that says 'throws', or cancel 'future.eraseFailure()', whose readers then stop waiting while this future's work goes on"
    )
    @discardableResult
    public func cancel() -> Bool { preconditionFailure("unavailable") }
}

extension Future where Value == Never, Failure == Never {
    /// Whether the future whose work is running on this thread has been cancelled.
    ///
    /// ```swift
    /// let done = BackgroundFuture { for chunk in chunks where !Future.isCurrentWorkCancelled { process(chunk) } }
    /// ```
    public static var isCurrentWorkCancelled: Bool { CurrentWork.innermost?._isCancelled ?? false }

    /// Throws `CancellationError` if the future whose work runs on this thread was cancelled.
    ///
    /// ```swift
    /// for page in pages { try Future.checkCancellation(); render(page) }   // inside a future's work
    /// ```
    /// - Throws: `CancellationError` if the running work's future was cancelled.
    public static func checkCancellation() throws(CancellationError) {
        if isCurrentWorkCancelled { throw CancellationError() }
    }
}

extension Future {
    var _isCancellableType: Bool { _isAnyError(Failure.self) }

    /// ``cancel()`` for combinators written for every `Failure`; does nothing if it cannot be cancelled.
    func _cancelIfCancellable() {
        guard _isCancellableType, _complete(with: .failure(CancellationError() as! Failure), cancelling: true) else {
            return
        }
        _dropLinks()
    }
}
