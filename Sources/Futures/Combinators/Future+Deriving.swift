public import Synchronization

extension Future {
    /// A future computed from `sources`: by `map`, `flatMap`, `zip`, `all` and the rest.
    ///
    /// It has no work of its own; `connect` registers the callbacks on its sources that resolve
    /// it. It keeps its sources' kind, decided here and nowhere else: derived from a lazy future
    /// (one of `kindSources`, which are `sources` unless given), it is lazy and connects only when
    /// first demanded; otherwise it connects now and resolves as soon as its sources do.
    /// `readersStartLazyWork`: blocking readers start the lazy work they find above it on a
    /// context instead of running it themselves (a timeout's, whose readers leave at the deadline).
    @inlinable
    convenience init(
        derivingFrom sources: [_FutureCore],
        readersStartLazyWork: Bool = false,
        fileID: StaticString,
        line: UInt,
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

    /// The failure of a resolved future, as `any Error`, if it failed: for combinators that keep
    /// their state in concrete types (a lock box of a generic type is code the client cannot
    /// specialize, which looks up that type's metadata each time).
    @inlinable
    var _erasedFailure: (any Error)? {
        if case .failure(let error)? = _resolvedResult { return error }
        return nil
    }

    /// Resolves this derived future with its sources' outcome; a cancelled source makes a future
    /// whose `Failure` is `any Error` cancelled too.
    @inlinable
    @discardableResult
    func resolve(with result: Result<Value, Failure>, sourceCancelled: Bool = false) -> Bool {
        _complete(with: result, cancelling: sourceCancelled && _isAnyError(Failure.self), droppingLinks: true)
    }

    /// Resolves this derived future, which no other thread can resolve, with its source's
    /// outcome: `resolve(with:sourceCancelled:)` without the compare-and-swap that decides who
    /// resolves (`beginCompletion`). The outcome goes into the empty slot, and one add publishes
    /// it from `pending`, keeping the flags that readers and callbacks set meanwhile.
    ///
    /// Only for a child whose step resolves it once, and that nothing else can: the child of a
    /// `map`, `recover`, `mapError`, or of a `flatMap` before it waits on an inner future (a
    /// waiting child may be failed with ``FutureCycleError`` first), and whose `Failure` is not
    /// `any Error`, the one type that `cancel()` can resolve. Any other child takes
    /// `resolve(with:sourceCancelled:)`: its `Failure` is decided where the caller is
    /// specialized, so the test costs nothing.
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

    /// Resolves this derived future with `source`'s failure, if it failed: `zip`, `fold` and
    /// `reduce` decide by a source's failure.
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

    /// Starts the future's work without running it on this thread (see `startWithoutBlocking`).
    @usableFromInline
    func _startWithoutBlocking() {
        startWithoutBlocking()
    }

    /// Calls `body` with the result once the future resolves: at once on this thread if it
    /// already has, otherwise on the thread that resolves it. Never starts work. Returns the
    /// registration of a parked callback, as `_onResolution` does.
    @inlinable
    @discardableResult
    func _whenResolved(_ body: @escaping @Sendable (Result<Value, Failure>) -> Void) -> CallbackRegistration? {
        _addResolutionCallback { future in body(Self._resolvedResult(of: future)) }
    }

    /// Calls `body` with this future once it resolves, as `_whenResolved` does.
    ///
    /// - Returns: The registration of a callback parked until resolution, to take it back
    ///   (`keep(_:)`, `removeResolutionCallback`); `nil` if it ran already.
    @inlinable
    @discardableResult
    func _onResolution(_ body: @escaping @Sendable (Future<Value, Failure>) -> Void) -> CallbackRegistration? {
        _addResolutionCallback { (future: _FutureCore) in
            body(unsafeDowncast(future, to: Future<Value, Failure>.self))
        }
    }
}

/// What a derived future made from a resolved source needs (see `Future._derive`).
@usableFromInline
enum DerivingAtOnce {
    /// Nothing at once: the source's callback resolves the child, as for a pending source.
    case never
    /// No links: the transform resolves the child before it returns.
    case linkless
    /// Empty links, which the transform may fill with the future it waits on (`wait(on:)`).
    case linked
}

extension _FutureCore {
    /// Whether a future derived from this one can be resolved when it is made: this one is
    /// resolved, and not lazy (what is derived from a lazy future runs only when read, even if
    /// its source already ran).
    @inlinable
    final var _isResolvedForDerivingAtOnce: Bool {
        let word = StateWord(raw: _state.load(ordering: .acquiring))
        return word.isResolved && !word.kind.isLazy
    }
}

extension FutureLinks {
    /// The links of a future derived from `source` alone, connected when it is made.
    @inlinable
    static func derived(from source: _FutureCore) -> FutureLinks {
        .holding(DerivedLinks(source: .passUnretained(source), switchesSources: true))
    }

    /// The links of a derived future with no source yet: one resolved when it is made, whose
    /// transform may make it wait on another future (`_wait(on:)`).
    @inlinable
    static var emptySources: FutureLinks {
        .holding(DerivedLinks(upstreams: [], connect: nil))
    }
}

extension _FutureCore {
    /// `addResolutionCallback`, for inlinable code.
    @usableFromInline
    @discardableResult
    final func _addResolutionCallback(_ callback: consuming @escaping @Sendable (_FutureCore) -> Void)
        -> CallbackRegistration?
    {
        addResolutionCallback(consume callback)
    }

    /// `addResolutionCallback(parked:)`, for inlinable code: a step parked where it can be taken
    /// back (`_ZipPairStep`).
    @usableFromInline
    final func _addResolutionCallback(parked callback: consuming ParkedCallback) -> CallbackRegistration? {
        addResolutionCallback(parked: consume callback)
    }

    /// `addResolutionCallbackForGood`, for inlinable code.
    @usableFromInline
    final func _addResolutionCallbackForGood(_ callback: consuming @escaping @Sendable (_FutureCore) -> Void) {
        addResolutionCallbackForGood(consume callback)
    }

    /// `addResolutionCallbackForGood(parked:)`, for inlinable code.
    @usableFromInline
    final func _addResolutionCallbackForGood(parked callback: consuming ParkedCallback) {
        addResolutionCallbackForGood(parked: consume callback)
    }

    /// `wait(on:)`, for inlinable code.
    @usableFromInline
    final func _wait(on source: _FutureCore) {
        wait(on: source)
    }
}
