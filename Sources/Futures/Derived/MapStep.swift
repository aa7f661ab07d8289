// `map`'s step and the steps' shared base: how `map` on a pending source makes its child, parks
// the step on the source, and resolves the child when the source resolves (docs/engine.md,
// "Derived futures", draws the path).

/// A `map`'s or `flatMap`'s child's links made from a pending source, which are also the callback
/// parked on it (`ParkedCallback.step`): one object instead of links plus a capturing closure.
/// Subclasses (`MapStep`, `FlatMapStep`) store the transform with its own function type.
///
/// The step holds the child strongly, so a `map` with only an `onSuccess` still runs; the child
/// holds the step (its links). The cycle is broken, releasing child and transform, when the
/// source resolves (`resolveOwner`) or is freed pending (`abandonStep`, from
/// `_discardParkedCallbacks` or `releaseIteratively`).
///
/// The child is touched once, by the thread that runs or abandons the callback: a resolution
/// hands callbacks to one thread, and a deinit runs only while no resolution can. The transform
/// too, except that `cancel()` on a child whose `NewFailure` is `any Error` takes it out at once
/// (`takeUnrunTransform`, under the child's stripe lock, in `_dropLinks`): such a child's run and
/// abandonment take it under that lock as well (each subclass's `takeTransform(of:)`). The
/// emptied step stays parked on the source until the source resolves or is freed.
@usableFromInline
class ChildStep<Value: Sendable, Failure: Error, NewValue: Sendable, NewFailure: Error>: DerivedLinks, DerivedStep,
    @unchecked Sendable
{
    // @unchecked: see above; `DerivedLinks` fields are guarded as there.

    /// Resolves the taken child: a capture-free closure made where `map`/`flatMap` is specialized,
    /// so the step runs specialized code (this class's methods, reached by vtable, are not).
    @usableFromInline typealias Body = @Sendable (ChildStep, Future<Value, Failure>) -> Void

    /// `nil` once the step ran or was abandoned.
    @exclusivity(unchecked) @usableFromInline final var child: Future<NewValue, NewFailure>?
    @usableFromInline final let body: Body

    /// Links to `source` (see `DerivedLinks.init(source:)`); `attach(_:)` follows.
    @usableFromInline
    init(source: _FutureCore, switchesSources: Bool, body: @escaping Body) {
        self.body = body
        super.init(source: source, switchesSources: switchesSources)
    }

    @inlinable
    final func attach(_ child: Future<NewValue, NewFailure>) { self.child = child }

    /// On first demand (`connectsOnDemand`): attaches `owner`, a lazy source's child, and parks
    /// the step. Attached only now, so an unread child makes no cycle with its step.
    @usableFromInline
    final func connectOnDemand(owner: _FutureCore, first source: _FutureCore?) {
        // A lazy source is linked strongly and taken with the mark: never `nil`.
        guard let source else { return }
        child = unsafeDowncast(owner, to: Future<NewValue, NewFailure>.self)
        source.addResolutionCallbackForGood(parked: .step(self))
    }

    @usableFromInline
    final func resolveOwner(from source: _FutureCore) {
        body(self, unsafeDowncast(source, to: Future<Value, Failure>.self))
    }

    @usableFromInline
    func abandonStep(into list: inout [Any]) {
        if let child = child.take() { list.append(child) }
    }

    /// While the step is parked, only a cancel can have decided its child. `child` is read under
    /// the source's lock, which its run and abandonment take it only after.
    override final var isSpent: Bool { child?._isResolved ?? false }
}

/// The step of `map`, `recover` and `mapError`: `Input` is the value (`map`) or the error; the
/// body knows which. One class, so the three cost the same (no closure context).
@usableFromInline
final class MapStep<
    Value: Sendable, Failure: Error, NewValue: Sendable, NewFailure: Error, Input, Output, TransformFailure: Error
>: ChildStep<Value, Failure, NewValue, NewFailure>, @unchecked Sendable {
    // @unchecked: as `ChildStep`'s.

    @usableFromInline typealias Transform = @Sendable (Input) throws(TransformFailure) -> Output

    /// `nil` once the step ran or was abandoned.
    @exclusivity(unchecked) @usableFromInline var transform: Transform?

    @usableFromInline
    init(source: _FutureCore, transform: @escaping Transform, body: @escaping Body) {
        self.transform = transform
        super.init(source: source, switchesSources: false, body: body)
    }

    /// Takes the child and transform out, for the body to run once; `nil` if the child was
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
        // Parked for good, also for a child `cancel()` can resolve: a cancel empties the step.
        _addResolutionCallbackForGood(parked: .step(consume step))
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
}
