/// The links of a `map`'s or a `flatMap`'s child made from a pending source, which are also the
/// callback it parks on that source (`ParkedCallback.step`): one object where there were two, the
/// links and a closure that captured the child and the transform. The transform is the
/// subclass's (`MapStep`, `FlatMapStep`): each stores it with its own function type.
///
/// The step holds the child strongly, as the closure did: the source's callback keeps the child
/// alive until the source resolves, so that a `map` with an `onSuccess` and no other reference
/// still runs. The child holds the step (its links), so the two make a cycle while the source is
/// pending, broken three ways, each of which lets go of the child and the transform:
/// - the source resolves, and the step runs (`resolveOwner(from:)`);
/// - the source is freed pending, and lets go of its callbacks (`abandonStep(into:)`, from
///   `_discardParkedCallbacks` or the source's own links' `releaseIteratively`);
/// - the callback is taken back (`removeResolutionCallback`; a `map`'s never is).
///
/// The child and the transform are read and written only by the thread that runs or abandons the
/// callback, once: the source's resolution hands its callbacks to one thread, and a source's
/// deinit runs only while it is pending, when no resolution can.
@usableFromInline
class ChildStep<Value: Sendable, Failure: Error, NewValue: Sendable, NewFailure: Error>: DerivedLinks, DerivedStep,
    @unchecked Sendable
{
    // @unchecked: see above; the fields of `DerivedLinks` are guarded as there.

    /// Resolves the child the step took (the subclass's `take()`) from the source: a closure that
    /// captures nothing, made where `map` or `flatMap` is specialized for its types, so that the
    /// step runs specialized code (this class's own methods, reached from the engine through its
    /// vtable, are not).
    @usableFromInline typealias Body = @Sendable (ChildStep, Future<Value, Failure>) -> Void

    /// The child to resolve; `nil` once the step ran or was abandoned.
    @exclusivity(unchecked) @usableFromInline final var child: Future<NewValue, NewFailure>?
    @usableFromInline final let body: Body

    /// Links to `source`, for a child that `attach(_:)` gives next. The source comes unretained
    /// (see `DerivedLinks.init(source:)`); the caller holds it.
    @usableFromInline
    init(source: Unmanaged<_FutureCore>, switchesSources: Bool, body: @escaping Body) {
        self.body = body
        super.init(source: source, switchesSources: switchesSources)
    }

    /// Gives the step its child, before the step is parked on the source.
    @inlinable
    final func attach(_ child: Future<NewValue, NewFailure>) {
        self.child = child
    }

    /// Attaches `owner`, a child of a lazy source, and parks this step on `source`: the first
    /// reader's demand does it (`DerivedLinks.connectsOnDemand`, set by `_attachStep`). Attached
    /// only now, a child that nobody reads makes no cycle with its step, and is freed with it.
    @usableFromInline
    final func connectOnDemand(owner: _FutureCore, first source: _FutureCore?) {
        // A lazy source is linked strongly, and taken with the mark: never `nil` here.
        guard let source else { return }
        child = unsafeDowncast(owner, to: Future<NewValue, NewFailure>.self)
        // Kept by a child that `cancel()` can resolve, to take back then (`keep(_:)`).
        if _isAnyError(NewFailure.self) {
            owner.keep(source.addResolutionCallback(parked: .step(self)))
        } else {
            source.addResolutionCallbackForGood(parked: .step(self))
        }
    }

    @usableFromInline
    final func resolveOwner(from source: _FutureCore) {
        body(self, unsafeDowncast(source, to: Future<Value, Failure>.self))
    }

    @usableFromInline
    func abandonStep(into list: inout [Any]) {
        if let child = child.take() { list.append(child) }
    }
}

/// A `map`'s step, and a `recover`'s or a `mapError`'s: `ChildStep` with the transform, which
/// takes the source's value (`Input` is `Value`, for `map`) or its error (`Input` is `Failure`,
/// for `recover` and `mapError`); the step's body knows which. One class for the three, so that
/// `recover` and `mapError` cost what `map` costs: no closure with a context of its own.
@usableFromInline
final class MapStep<
    Value: Sendable, Failure: Error, NewValue: Sendable, NewFailure: Error, Input, Output, TransformFailure: Error
>: ChildStep<Value, Failure, NewValue, NewFailure>, @unchecked Sendable {
    // @unchecked: as `ChildStep`'s.

    @usableFromInline typealias Transform = @Sendable (Input) throws(TransformFailure) -> Output

    /// The step's transform; `nil` once the step ran or was abandoned.
    @exclusivity(unchecked) @usableFromInline var transform: Transform?

    @usableFromInline
    init(source: Unmanaged<_FutureCore>, transform: @escaping Transform, body: @escaping Body) {
        self.transform = transform
        super.init(source: source, switchesSources: false, body: body)
    }

    /// Takes the child and the transform out, for the body to run once.
    @inlinable
    func take() -> (child: Future<NewValue, NewFailure>, transform: Transform)? {
        guard let child = child.take(), let transform = transform.take() else { return nil }
        return (child, transform)
    }

    override func abandonStep(into list: inout [Any]) {
        super.abandonStep(into: &list)
        if let transform = transform.take() { list.append(transform) }
    }
}

/// A `mapError`'s step: `ChildStep` with a transform that takes the error and cannot throw.
///
/// A class of its own rather than `MapStep` with `Input` the error and `Output` the new error:
/// there, its transform's type (`throws(Never)`) made Swift 6.3 crash (signal 11) emitting a
/// reabstraction thunk in the step's body. A plain function type needs no thunk.
@usableFromInline
final class MapErrorStep<Value: Sendable, Failure: Error, NewFailure: Error>:
    ChildStep<Value, Failure, Value, NewFailure>, @unchecked Sendable
{
    // @unchecked: as `ChildStep`'s.

    @usableFromInline typealias Transform = @Sendable (Failure) -> NewFailure

    /// The step's transform; `nil` once the step ran or was abandoned.
    @exclusivity(unchecked) @usableFromInline var transform: Transform?

    @usableFromInline
    init(source: Unmanaged<_FutureCore>, transform: @escaping Transform, body: @escaping Body) {
        self.transform = transform
        super.init(source: source, switchesSources: false, body: body)
    }

    /// Takes the child and the transform out, for the body to run once.
    @inlinable
    func take() -> (child: Future<Value, NewFailure>, transform: Transform)? {
        guard let child = child.take(), let transform = transform.take() else { return nil }
        return (child, transform)
    }

    override func abandonStep(into list: inout [Any]) {
        super.abandonStep(into: &list)
        if let transform = transform.take() { list.append(transform) }
    }
}
