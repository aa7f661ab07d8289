// What every derived future shares: making the child, attaching its step, resolving it.

extension Future {
    /// Makes a future derived from this one alone; `resolve` runs once this one resolves.
    ///
    /// `atOnce`, for a resolved non-lazy source when `resolve` can run at creation: `.linkless` if
    /// it always resolves the child (no links, no callback), `.linked` if it may make it wait on
    /// another future (empty links), `.never` if it keeps something in the links (a timer).
    func _derive<NewValue, NewFailure>(
        fileID: StaticString, line: UInt,
        atOnce: DerivingAtOnce = .never,
        _ resolve: @escaping @Sendable (Future<Value, Failure>, Future<NewValue, NewFailure>) -> Void
    ) -> Future<NewValue, NewFailure> {
        // On a thread that runs callbacks, `resolve` waits for its turn (A+ 2.2.6) as a callback.
        if atOnce != .never, _isResolvedForDerivingAtOnce,
            let child: Future<NewValue, NewFailure> = _childResolvedAtOnce(
                links: atOnce == .linkless ? .none : .emptySources, fileID: fileID, line: line, { resolve(self, $0) })
        {
            return child
        }
        guard _isLazyKind else {
            // Connected now: one callback on the source, which calls `resolve` itself.
            let child = Future<NewValue, NewFailure>(
                kind: .derived, links: .derived(from: self), work: nil, fileID: fileID, line: line)
            let callback: @Sendable (_FutureCore) -> Void = { parent in
                resolve(unsafeDowncast(parent, to: Future<Value, Failure>.self), child)
            }
            // Taken back if the child is cancelled, as a step is (`_attachStep`).
            if _isAnyError(NewFailure.self) {
                child.keep(_addResolutionCallback(callback))
            } else {
                _addResolutionCallbackForGood(callback)
            }
            return child
        }
        return Future<NewValue, NewFailure>(derivingFrom: [self], fileID: fileID, line: line) { child in
            child.keep(self._onResolution { parent in resolve(parent, child) })
        }
    }

    /// The one implementation of every `map`. The public overloads guarantee `Failure` and
    /// `TransformFailure` are each `NewFailure`, `Never`, or any type when `NewFailure` is
    /// `any Error`, so ``convertFailure(_:)`` always succeeds.
    @inlinable
    func _map<NewValue, NewFailure, TransformFailure>(
        fileID: StaticString, line: UInt,
        _ transform: @escaping @Sendable (Value) throws(TransformFailure) -> NewValue
    ) -> Future<NewValue, NewFailure> {
        if _isResolvedForDerivingAtOnce,
            let child: Future<NewValue, NewFailure> = _childResolvedAtOnce(
                fileID: fileID, line: line, { Self._resolve($0, from: self, with: transform) })
        {
            return child
        }
        // Pending (or resolved on a callback-running thread), or lazy: the step (`MapStep`) is
        // the child's links and its callback, parked now or on a lazy child's first demand.
        typealias Step = MapStep<Value, Failure, NewValue, NewFailure, Value, NewValue, TransformFailure>
        let step = Step(source: self, transform: transform) { step, parent in
            guard let (child, transform) = unsafeDowncast(step, to: Step.self).take() else { return }
            // `consume`: lent to the call, not retained and released twice (gated: map step).
            Self._resolve(child, from: parent, with: consume transform)
        }
        return _attachStep(step, fileID: fileID, line: line)
    }

    /// A derived future made and resolved now by `resolve` (non-escaping: no allocation per step),
    /// for a resolved non-lazy source, as a callback would (`runIfIdle`, A+ 2.2.6); `nil` on a
    /// thread running callbacks, where the caller parks a callback or step instead.
    @inlinable @inline(__always)
    func _childResolvedAtOnce<NewValue, NewFailure>(
        links: FutureLinks = .none, fileID: StaticString, line: UInt, _ resolve: (Future<NewValue, NewFailure>) -> Void
    ) -> Future<NewValue, NewFailure>? {
        var child: Future<NewValue, NewFailure>?
        let ran = CallbackTrampoline.runIfIdle {
            let made = Future<NewValue, NewFailure>(kind: .derived, links: links, work: nil, fileID: fileID, line: line)
            child = made
            resolve(made)
        }
        return ran ? child : nil
    }

    /// Makes the child of a `map`/`flatMap` step and parks the step, which is the child's links
    /// and the callback on this future. Of a lazy source the child is lazy and the step is parked
    /// on first demand (`connectsOnDemand`), holding source and transform but not the child.
    @inlinable @inline(__always)
    func _attachStep<NewValue, NewFailure, Step: ChildStep<Value, Failure, NewValue, NewFailure>>(
        _ step: __owned Step, fileID: StaticString, line: UInt
    ) -> Future<NewValue, NewFailure> {
        if _isLazyKind {
            // No callback is parked yet.
            step.connectsOnDemand = true
            return Future<NewValue, NewFailure>(
                kind: .lazyDerived, links: .holding(step), work: nil, fileID: fileID, line: line)
        }
        let child = Future<NewValue, NewFailure>(
            kind: .derived, links: .holding(step), work: nil, fileID: fileID, line: line)
        step.attach(child)
        if _isAnyError(NewFailure.self) {
            // Taken back if `cancel()` resolves the child; the step then lets go of the transform.
            child.keep(_addResolutionCallback(parked: .step(consume step)))
        } else {
            _addResolutionCallbackForGood(parked: .step(consume step))
        }
        return child
    }

    /// Resolves `child`, a `map` of the resolved `parent`.
    @inlinable @inline(__always)
    static func _resolve<NewValue, NewFailure, TransformFailure>(
        _ child: Future<NewValue, NewFailure>,
        from parent: Future<Value, Failure>,
        with transform: (Value) throws(TransformFailure) -> NewValue
    ) {
        switch parent._result {
        case .success(let value):
            do throws(TransformFailure) {
                child._resolveUncontended(with: .success(try transform(value)))
            } catch {
                child._resolveUncontended(with: .failure(convertFailure(error)))
            }
        case .failure(let error):
            child._resolveUncontended(with: .failure(convertFailure(error)), sourceCancelled: parent._isCancelled)
        }
    }

    /// The one implementation of every `flatMap`; `_map`'s guarantee covers `InnerFailure` too.
    @inlinable
    func _flatMap<NewValue, NewFailure, TransformFailure, InnerFailure>(
        fileID: StaticString, line: UInt,
        _ transform: @escaping @Sendable (Value) throws(TransformFailure) -> Future<NewValue, InnerFailure>
    ) -> Future<NewValue, NewFailure> {
        if _isResolvedForDerivingAtOnce {
            // Runs now, as a callback would; the child gets links only if the inner is pending.
            var child: Future<NewValue, NewFailure>?
            let ran = CallbackTrampoline.runIfIdle {
                child = _flatMapOfResolved(fileID: fileID, line: line, transform)
            }
            if ran, let child { return child }
        }
        // As for `map`: the step (`FlatMapStep`) is the child's links and callback. A closure per
        // step cost an allocation, and a long chain's memory was not reused (gated: flatMap step,
        // pending source).
        typealias Step = FlatMapStep<Value, Failure, NewValue, NewFailure, TransformFailure, InnerFailure>
        let step = Step(source: self, transform: transform) { step, parent in
            guard let (child, transform) = unsafeDowncast(step, to: Step.self).take() else { return }
            // `consume`, as in `map`'s step.
            Self._resolve(child, from: parent, flatMapping: consume transform)
        }
        return _attachStep(step, fileID: fileID, line: line)
    }

    /// Resolves `child`, a `flatMap` of the resolved `parent`: with the inner future's outcome
    /// (now if resolved), `transform`'s error, or `parent`'s.
    @inlinable @inline(__always)
    static func _resolve<NewValue, NewFailure, TransformFailure, InnerFailure>(
        _ child: Future<NewValue, NewFailure>,
        from parent: Future<Value, Failure>,
        flatMapping transform: (Value) throws(TransformFailure) -> Future<NewValue, InnerFailure>
    ) {
        switch parent._result {
        case .success(let value):
            let inner: Future<NewValue, InnerFailure>
            do throws(TransformFailure) {
                inner = try transform(value)
            } catch {
                child._resolveUncontended(with: .failure(convertFailure(error)))
                return
            }
            if inner._isResolved {
                child._resolveUncontended(
                    with: inner._result.mapError { convertFailure($0) }, sourceCancelled: inner._isCancelled)
                return
            }
            child._wait(on: inner)
            child._resolve(whenResolved: inner)
        case .failure(let error):
            child._resolveUncontended(with: .failure(convertFailure(error)), sourceCancelled: parent._isCancelled)
        }
    }

    /// A `flatMap` child of this resolved, non-lazy future, made on a thread running it as a
    /// callback: resolved when made, without links, unless the inner future is pending.
    @inlinable
    func _flatMapOfResolved<NewValue, NewFailure, TransformFailure, InnerFailure>(
        fileID: StaticString, line: UInt,
        _ transform: @escaping @Sendable (Value) throws(TransformFailure) -> Future<NewValue, InnerFailure>
    ) -> Future<NewValue, NewFailure> {
        func resolved(_ result: Result<NewValue, NewFailure>, cancelled: Bool) -> Future<NewValue, NewFailure> {
            let child = Future<NewValue, NewFailure>(
                kind: .derived, links: .none, work: nil, fileID: fileID, line: line)
            child._resolveUncontended(with: result, sourceCancelled: cancelled)
            return child
        }
        let inner: Future<NewValue, InnerFailure>
        switch _result {
        case .failure(let error):
            return resolved(.failure(convertFailure(error)), cancelled: _isCancelled)
        case .success(let value):
            do throws(TransformFailure) {
                inner = try transform(value)
            } catch {
                return resolved(.failure(convertFailure(error)), cancelled: false)
            }
        }
        if inner._isResolved {
            return resolved(inner._result.mapError { convertFailure($0) }, cancelled: inner._isCancelled)
        }
        let child = Future<NewValue, NewFailure>(
            kind: .derived, links: .emptySources, work: nil, fileID: fileID, line: line)
        child._wait(on: inner)
        child._resolve(whenResolved: inner)
        return child
    }

    /// Resolves this future with `inner`'s outcome once it resolves (after `_wait(on:)`).
    @inlinable
    func _resolve<InnerFailure>(whenResolved inner: Future<Value, InnerFailure>) {
        let callback: @Sendable (_FutureCore) -> Void = { inner in
            let inner = unsafeDowncast(inner, to: Future<Value, InnerFailure>.self)
            self.resolve(with: inner._result.mapError { convertFailure($0) }, sourceCancelled: inner._isCancelled)
        }
        if _isAnyError(Failure.self) {
            keep(inner._addResolutionCallback(callback))
        } else {
            inner._addResolutionCallbackForGood(callback)
        }
    }
}

/// `error` as `To`, as the overloads guarantee (`From` is `To`, or `To` is `any Error`).
@inlinable
func convertFailure<From: Error, To: Error>(_ error: From) -> To {
    guard let converted = error as? To else {
        preconditionFailure("a \(From.self) error reached a future whose error type is \(To.self)")
    }
    return converted
}
