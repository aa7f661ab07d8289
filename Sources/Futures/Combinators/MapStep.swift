/// A `map`'s or `flatMap`'s child's links made from a pending source, which are also the callback
/// parked on it (`ParkedCallback.step`): one object instead of links plus a capturing closure.
/// Subclasses (`MapStep`, `FlatMapStep`) store the transform with its own function type.
///
/// The step holds the child strongly, so a `map` with only an `onSuccess` still runs; the child
/// holds the step (its links). The cycle is broken, releasing child and transform, when the
/// source resolves (`resolveOwner`), is freed pending (`abandonStep`, from
/// `_discardParkedCallbacks` or `releaseIteratively`), or the callback is taken back.
///
/// Child and transform are touched once, by the thread that runs or abandons the callback: a
/// resolution hands callbacks to one thread, and a deinit runs only while no resolution can.
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
        // A child `cancel()` can resolve takes the callback back then.
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

    /// Takes the child and transform out, for the body to run once.
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

/// A `mapError`'s step. Not `MapStep`: its `throws(Never)` transform type crashed Swift 6.3
/// (signal 11) emitting a reabstraction thunk; a plain function type needs none.
final class MapErrorStep<Value: Sendable, Failure: Error, NewFailure: Error>:
    ChildStep<Value, Failure, Value, NewFailure>, @unchecked Sendable
{
    // @unchecked: as `ChildStep`'s.

    typealias Transform = @Sendable (Failure) -> NewFailure

    /// `nil` once the step ran or was abandoned.
    var transform: Transform?

    init(source: _FutureCore, transform: @escaping Transform, body: @escaping Body) {
        self.transform = transform
        super.init(source: source, switchesSources: false, body: body)
    }

    /// Takes the child and transform out, for the body to run once.
    func take() -> (child: Future<Value, NewFailure>, transform: Transform)? {
        guard let child = child.take(), let transform = transform.take() else { return nil }
        return (child, transform)
    }

    override func abandonStep(into list: inout [Any]) {
        super.abandonStep(into: &list)
        if let transform = transform.take() { list.append(transform) }
    }
}
