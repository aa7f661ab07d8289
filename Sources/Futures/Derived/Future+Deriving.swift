public import Synchronization

extension Future {
    /// A future computed from `sources`: by `map`, `flatMap`, `zip`, `all` and the rest.
    ///
    /// No work of its own: `connect` registers the callbacks that resolve it. Its kind is decided
    /// here alone: derived from a lazy source it is lazy and connects on first demand; otherwise
    /// it connects now. `readersStartLazyWork`: see `DerivedLinks.readersStartLazyWork`.
    @inlinable
    convenience init(
        derivingFrom sources: [_FutureCore],
        readersStartLazyWork: Bool = false,
        fileID: StaticString, line: UInt,
        connect: @escaping @Sendable (Future<Value, Failure>) -> Void
    ) {
        let lazy = sources.contains { $0._kind.isLazy }
        var erasedConnect: (@Sendable (_FutureCore) -> Void)?
        if lazy {
            erasedConnect = { future in connect(unsafeDowncast(future, to: Future<Value, Failure>.self)) }
        }
        self.init(
            kind: lazy ? .lazyDerived : .derived,
            links: .holding(
                DerivedLinks(upstreams: sources, connect: erasedConnect, readersStartLazyWork: readersStartLazyWork)),
            work: nil, fileID: fileID, line: line)
        if !lazy { connect(self) }
    }

    /// Whether nothing runs until someone reads: lazy futures and what is derived from them.
    @inlinable
    var _isLazyKind: Bool { StateWord(raw: _state.load(ordering: .acquiring)).kind.isLazy }

    /// A resolved future's failure as `any Error`, for combinators whose state is non-generic
    /// (a generic lock box cannot be specialized in the client).
    @inlinable
    var _erasedFailure: (any Error)? {
        if case .failure(let error)? = _resolvedResult { return error }
        return nil
    }

    /// Resolves this derived future; a cancelled source cancels it too when `Failure` is `any Error`.
    @inlinable
    @discardableResult
    func resolve(with result: Result<Value, Failure>, sourceCancelled: Bool = false) -> Bool {
        _complete(with: result, cancelling: sourceCancelled && _isAnyError(Failure.self), droppingLinks: true)
    }

    /// `resolve(with:sourceCancelled:)` without the deciding compare-and-swap, for a child only
    /// its step resolves, once: a `map`, `recover`, `mapError`, or a `flatMap` before it waits on
    /// an inner future (a waiting child may be failed with ``FutureCycleError`` first). One add
    /// publishes from `pending`, keeping flags set meanwhile. `any Error` (which `cancel()` can
    /// resolve) takes the full path; the test is specialized away (gated: map step).
    @inlinable
    func _resolveUncontended(with result: Result<Value, Failure>, sourceCancelled: Bool = false) {
        guard !_isAnyError(Failure.self) else {
            resolve(with: result, sourceCancelled: sourceCancelled)
            return
        }
        assert(
            StateWord(raw: _state.load(ordering: .relaxed)).phase == .pending,
            "a future resolved as uncontended was resolved by another thread")
        var succeeded = false
        if case .success = result { succeeded = true }
        _fillEmptySlot(with: _FutureSlot(result))
        _publishResolution(
            adding: StateWord.publishIncrement(from: .pending, succeeded: succeeded), droppingLinks: true)
    }

    /// Resolves this derived future with `source`'s failure, if it failed.
    @inlinable
    func _resolveIfFailed<SourceValue>(_ source: Future<SourceValue, Failure>) {
        guard case .failure(let error) = source._result else { return }
        resolve(with: .failure(error), sourceCancelled: source._isCancelled)
    }

    /// Resolves this derived future with what `body` returns, or with the error it throws.
    @inlinable
    func resolve(catching body: () throws(Failure) -> Value) {
        do throws(Failure) {
            resolve(with: .success(try body()))
        } catch {
            resolve(with: .failure(error))
        }
    }

    /// Calls `body` with the result once resolved, as `_onResolution` does.
    @inlinable
    @discardableResult
    func _whenResolved(_ body: @escaping @Sendable (Result<Value, Failure>) -> Void) -> CallbackRegistration? {
        _addResolutionCallback { future in body(Self._resolvedResult(of: future)) }
    }

    /// Calls `body` with this future once resolved (`addResolutionCallback`); the registration,
    /// or `nil` if it ran already.
    @inlinable
    @discardableResult
    func _onResolution(_ body: @escaping @Sendable (Future<Value, Failure>) -> Void) -> CallbackRegistration? {
        _addResolutionCallback { (future: _FutureCore) in
            body(unsafeDowncast(future, to: Future<Value, Failure>.self))
        }
    }
}

/// What a child of a resolved source needs (`Future._derive`).
enum DerivingAtOnce {
    /// The source's callback resolves the child, as for a pending source.
    case never
    /// No links: the transform resolves the child before returning.
    case linkless
    /// Empty links, which the transform may fill (`wait(on:)`).
    case linked
}

extension _FutureCore {
    /// Whether a future derived from this one can be resolved when made: resolved and not lazy
    /// (what derives from a lazy future runs only when read).
    @inlinable
    final var _isResolvedForDerivingAtOnce: Bool {
        let word = StateWord(raw: _state.load(ordering: .acquiring))
        return word.isResolved && !word.kind.isLazy
    }
}

extension FutureLinks {
    @inlinable
    static func derived(from source: _FutureCore) -> FutureLinks {
        .holding(DerivedLinks(source: source, switchesSources: true))
    }

    /// Links with no source yet, for a child resolved when made that may `_wait(on:)`.
    @inlinable
    static var emptySources: FutureLinks { .holding(DerivedLinks(upstreams: [], connect: nil)) }
}

extension _FutureCore {
    /// `addResolutionCallback`, for inlinable code.
    @inlinable
    @discardableResult
    final func _addResolutionCallback(_ callback: consuming @escaping @Sendable (_FutureCore) -> Void)
        -> CallbackRegistration?
    {
        _addResolutionCallback(parked: .closure(consume callback))
    }

    /// `addResolutionCallback(parked:)`, for inlinable code.
    @usableFromInline
    final func _addResolutionCallback(parked callback: consuming ParkedCallback) -> CallbackRegistration? {
        addResolutionCallback(parked: consume callback)
    }

    /// `addResolutionCallbackForGood`, for inlinable code.
    @inlinable
    final func _addResolutionCallbackForGood(_ callback: consuming @escaping @Sendable (_FutureCore) -> Void) {
        _addResolutionCallbackForGood(parked: .closure(consume callback))
    }

    /// `addResolutionCallbackForGood(parked:)`, for inlinable code.
    @usableFromInline
    final func _addResolutionCallbackForGood(parked callback: consuming ParkedCallback) {
        addResolutionCallbackForGood(parked: consume callback)
    }

    /// `wait(on:)`, for inlinable code.
    @usableFromInline
    final func _wait(on source: _FutureCore) { wait(on: source) }
}
