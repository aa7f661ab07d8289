/// A `flatMap`'s step. Not `MapStep`: a stored closure with a generic return type returns through
/// a reabstraction thunk, one returning a `Future` returns it directly.
@usableFromInline
final class FlatMapStep<
    Value: Sendable, Failure: Error, NewValue: Sendable, NewFailure: Error, TransformFailure: Error, InnerFailure: Error
>: ChildStep<Value, Failure, NewValue, NewFailure>, @unchecked Sendable {
    // @unchecked: as `ChildStep`'s.

    @usableFromInline typealias Transform = @Sendable (Value) throws(TransformFailure) -> Future<NewValue, InnerFailure>

    /// `nil` once the step ran or was abandoned.
    @exclusivity(unchecked) @usableFromInline var transform: Transform?

    @usableFromInline
    init(source: _FutureCore, transform: @escaping Transform, body: @escaping Body) {
        self.transform = transform
        super.init(source: source, switchesSources: true, body: body)
    }

    /// Takes the child and the transform out, for the body to run once; `nil` if the child was
    /// cancelled first.
    @inlinable
    func take() -> (child: Future<NewValue, NewFailure>, transform: Transform)? {
        guard let child = child.take(), let transform = takeTransform(of: child) else { return nil }
        return (child, transform)
    }

    /// Takes the transform out if `owner`'s `cancel()` has not (see `ChildStep`).
    @inlinable
    func takeTransform(of owner: _FutureCore) -> Transform? {
        guard _isAnyError(NewFailure.self) else { return transform.take() }
        var taken: Transform?
        owner._withStripeLocked { taken = self.transform.take() }
        return taken
    }

    override func takeUnrunTransform() -> Any? { transform.take() }

    override func abandonStep(into list: inout [Any]) {
        if let child, let transform = takeTransform(of: child) { list.append(transform) }
        super.abandonStep(into: &list)
    }
}

extension Future {
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
        // For good, also for a child `cancel()` can resolve: the callback holds no user closure.
        inner._addResolutionCallbackForGood(callback)
    }
}
