// The machinery every derived future shares: making the child, attaching its step, resolving it.
// The public overloads are in Future+Transforms.swift.

extension Future {
    /// Makes a future derived from this one alone; `resolve` runs once this one resolves.
    ///
    /// `atOnce` says what a child of a source that is already resolved (and not lazy) needs, when
    /// `resolve` can run at creation (`CallbackTrampoline.runAtOnce`): `.linkless` for a `resolve`
    /// that always resolves the child before it returns (no links, no callback on the source),
    /// `.linked` for one that may make it wait on another future (empty links, no callback on the
    /// source), `.never` for one that keeps something in the child's links (a timer).
    @inlinable
    func _derive<NewValue, NewFailure>(
        fileID: StaticString,
        line: UInt,
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

    /// The one implementation of every `map`: `transform` throws `TransformFailure`, and the
    /// child fails with `NewFailure`.
    ///
    /// The public overloads guarantee that `Failure` and `TransformFailure` are each either
    /// `NewFailure`, `Never`, or any error type when `NewFailure` is `any Error`, so that
    /// ``convertFailure(_:)`` always succeeds.
    @inlinable
    func _map<NewValue, NewFailure, TransformFailure>(
        fileID: StaticString,
        line: UInt,
        _ transform: @escaping @Sendable (Value) throws(TransformFailure) -> NewValue
    ) -> Future<NewValue, NewFailure> {
        if _isResolvedForDerivingAtOnce,
            let child: Future<NewValue, NewFailure> = _childResolvedAtOnce(
                fileID: fileID, line: line, { Self._resolve($0, from: self, with: transform) })
        {
            return child
        }
        // A source pending (or resolved, on a thread running callbacks), or lazy: the child's
        // links are its callback (`MapStep`), parked now, or when a reader demands a lazy child.
        typealias Step = MapStep<Value, Failure, NewValue, NewFailure, Value, NewValue, TransformFailure>
        let step = Unmanaged.passRetained(
            Step(source: .passUnretained(self), transform: transform) { step, parent in
                guard let (child, transform) = unsafeDowncast(step, to: Step.self).take() else { return }
                // `consume`: the transform the step gave up is lent to the call and released
                // after it; without it, it was retained for the call and released twice.
                Self._resolve(child, from: parent, with: consume transform)
            })
        return _attachStep(step, fileID: fileID, line: line)
    }

    /// A derived future with `links` (none, unless `resolve` may make it wait on another future),
    /// made and resolved now by `resolve`, when this future is resolved and not lazy, as a callback
    /// would (`runIfIdle`: after the callbacks this thread is running, A+ 2.2.6); `nil` if this
    /// thread is running callbacks, and the caller parks a callback or a step instead. `resolve`
    /// is not escaping: `map` and `recover` call this directly, where `_derive`'s escaping closure
    /// cost an allocation per step.
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

    /// Makes the child of a `map` or `flatMap` step of this future, and parks the step on this
    /// future: `step` comes retained once (`passRetained`), the reference the
    /// parked callback takes over; the child's links take a second one.
    ///
    /// Through a local `let`, the step would be retained twice (the links and the callback) and
    /// released once at the end of its scope: two atomic operations where one is needed.
    ///
    /// Of a lazy source, the child is lazy too, and the step is parked only when a reader
    /// demands the child (`connectsOnDemand`): until then nothing runs, and the step holds the
    /// source and its transform but not the child: no closure to connect, no extras, no closure
    /// for the callback and no array of sources, as `_derive` would make.
    @inlinable @inline(__always)
    func _attachStep<NewValue, NewFailure, Step: ChildStep<Value, Failure, NewValue, NewFailure>>(
        _ step: Unmanaged<Step>, fileID: StaticString, line: UInt
    ) -> Future<NewValue, NewFailure> {
        if _isLazyKind {
            // The reference `step` comes with is the links' own: no callback is parked yet.
            step._withUnsafeGuaranteedRef { $0.connectsOnDemand = true }
            return Future<NewValue, NewFailure>(
                kind: .lazyDerived, links: .sources(.fromOpaque(step.toOpaque())), work: nil, fileID: fileID,
                line: line)
        }
        let child = Future<NewValue, NewFailure>(
            kind: .derived, links: step._withUnsafeGuaranteedRef { .holding($0) }, work: nil, fileID: fileID,
            line: line)
        step._withUnsafeGuaranteedRef { $0.attach(child) }
        if _isAnyError(NewFailure.self) {
            // A child that `cancel()` can resolve takes its step back from this future then, and
            // the step lets go of the transform and all it captured (`keep(_:)`).
            child.keep(_addResolutionCallback(parked: .step(step.takeRetainedValue())))
        } else {
            _addResolutionCallbackForGood(parked: .step(step.takeRetainedValue()))
        }
        return child
    }

    /// Resolves `child`, a `map` of `parent`, which has resolved, with `transform` applied to its
    /// value, or with its error.
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

    /// The one implementation of every `flatMap`; the same guarantee as ``_map(fileID:line:_:)``
    /// holds for `Failure`, `TransformFailure` and `InnerFailure`.
    @inlinable
    func _flatMap<NewValue, NewFailure, TransformFailure, InnerFailure>(
        fileID: StaticString,
        line: UInt,
        _ transform: @escaping @Sendable (Value) throws(TransformFailure) -> Future<NewValue, InnerFailure>
    ) -> Future<NewValue, NewFailure> {
        if _isResolvedForDerivingAtOnce {
            // The transform runs now, as a callback would (`runIfIdle`), and the child gets links
            // only if the future it returns is still pending: a child that takes an outcome at
            // once needs no links, and no lock to drop them.
            var child: Future<NewValue, NewFailure>?
            let ran = CallbackTrampoline.runIfIdle {
                child = _flatMapOfResolved(fileID: fileID, line: line, transform)
            }
            if ran, let child { return child }
        }
        // A source pending (or resolved, on a thread running callbacks), or lazy: the child's
        // links are its callback (`FlatMapStep`), as for `map`. Through `_derive`, the
        // callback was a closure with a context of its own, one allocation more per step; and
        // jemalloc did not reuse the memory of a chain of 100,000 such steps, resolved while
        // each step made its inner future: every run of the chain touched fresh pages, about
        // 4,600 page faults per run against 575 now.
        let step = Unmanaged.passRetained(
            FlatMapStep<Value, Failure, NewValue, NewFailure, TransformFailure, InnerFailure>(
                source: .passUnretained(self), transform: transform
            ) { step, parent in
                let step = unsafeDowncast(
                    step, to: FlatMapStep<Value, Failure, NewValue, NewFailure, TransformFailure, InnerFailure>.self
                )
                guard let (child, transform) = step.take() else { return }
                // `consume`, as in `map`'s step.
                Self._resolve(child, from: parent, flatMapping: consume transform)
            })
        return _attachStep(step, fileID: fileID, line: line)
    }

    /// Resolves `child`, a `flatMap` of `parent`, which has resolved: with the outcome of the
    /// future `transform` returns for its value (at once if that future is resolved, else when it
    /// resolves), with the error `transform` throws, or with `parent`'s error.
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
                // Nothing to wait on or to start: the child takes the inner future's outcome now.
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

    /// The child of a `flatMap` of this future, which is resolved and not lazy, made on a thread
    /// that runs it as a callback: resolved when made, without links, unless the future that
    /// `transform` returns is pending.
    @inlinable
    func _flatMapOfResolved<NewValue, NewFailure, TransformFailure, InnerFailure>(
        fileID: StaticString,
        line: UInt,
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

    /// Resolves this derived future with `inner`'s outcome once `inner` resolves: the second half
    /// of a `flatMap`, after `_wait(on:)`.
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

/// `error` as `To`, which the combinators' overloads guarantee it is: `From` is `To`, or `To`
/// is `any Error` (a `Never` error is never passed, as no value of it exists).
@inlinable
func convertFailure<From: Error, To: Error>(_ error: From) -> To {
    guard let converted = error as? To else {
        preconditionFailure("a \(From.self) error reached a future whose error type is \(To.self)")
    }
    return converted
}
