extension Future {
    /// A future computed from `sources`: by `map`, `flatMap`, `zip`, `all` and the rest.
    ///
    /// It has no work of its own; `connect` registers the callbacks on its sources that resolve
    /// it. It keeps its sources' kind: made `lazy` (from a lazy source), it connects only when
    /// first demanded; otherwise it connects now and resolves as soon as its sources do.
    convenience init(
        derivingFrom sources: [_FutureCore],
        lazy: Bool,
        fileID: StaticString,
        line: UInt,
        connect: @escaping @Sendable (Future<Value, Failure>) -> Void
    ) {
        var erasedConnect: (@Sendable (_FutureCore) -> Void)?
        if lazy {
            erasedConnect = { future in connect(unsafeDowncast(future, to: Future<Value, Failure>.self)) }
        }
        self.init(
            kind: lazy ? .lazyDerived : .derived,
            links: .sources(DerivedLinks(upstreams: sources, connect: erasedConnect)),
            work: nil, fileID: fileID, line: line)
        if !lazy { connect(self) }
    }

    /// Whether nothing runs until someone reads: lazy futures and what is derived from them.
    var _isLazyKind: Bool { _kind.isLazy }

    /// Whether the future was resolved by cancellation, its own or a source's.
    var isCancelledWhileRunning: Bool { _isCancelled }

    /// Resolves this derived future with its sources' outcome; a cancelled source makes a future
    /// whose `Failure` is `any Error` cancelled too.
    @discardableResult
    func resolve(with result: Result<Value, Failure>, sourceCancelled: Bool = false) -> Bool {
        let resolved = _complete(with: result, cancelling: sourceCancelled && Failure.self == (any Error).self)
        if resolved { dropUpstreams() }
        return resolved
    }

    /// Resolves this derived future with what `body` returns, or with the error it throws.
    func resolve(catching body: () throws(Failure) -> Value) {
        do throws(Failure) {
            resolve(with: .success(try body()))
        } catch {
            resolve(with: .failure(error))
        }
    }

    /// Starts the future's work without running it on this thread (see `startWithoutBlocking`).
    func _startWithoutBlocking() {
        startWithoutBlocking()
    }

    /// Calls `body` with the result once the future resolves: at once on this thread if it
    /// already has, otherwise on the thread that resolves it. Never starts work.
    func _whenResolved(_ body: @escaping @Sendable (Result<Value, Failure>) -> Void) {
        _onResolution { future in body(future._result) }
    }

    /// Calls `body` with this future once it resolves, as `_whenResolved` does.
    func _onResolution(_ body: @escaping @Sendable (Future<Value, Failure>) -> Void) {
        addResolutionCallback { (future: _FutureCore) in body(unsafeDowncast(future, to: Future<Value, Failure>.self)) }
    }
}

/// The futures that `Future.init(derivingFrom:…)` makes: plain ``Future``s of a derived kind.
/// The name keeps the composition code's signatures readable.
typealias DerivedFuture<Value: Sendable, Failure: Error> = Future<Value, Failure>

extension Future {
    /// A derived future, spelled as the composition code spells it (`DerivedFuture(lazy:…)`).
    convenience init(
        lazy: Bool,
        upstreams: [_FutureCore],
        fileID: StaticString,
        line: UInt,
        connect: @escaping @Sendable (Future<Value, Failure>) -> Void
    ) {
        self.init(derivingFrom: upstreams, lazy: lazy, fileID: fileID, line: line, connect: connect)
    }
}
