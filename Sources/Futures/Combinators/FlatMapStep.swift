/// The links of a `flatMap`'s child made from a pending source, which are also the callback it
/// parks on that source: `MapStep`'s shape for a transform that returns a future, with the same
/// cycle and the same three ways out of it (see `MapStep`).
///
/// Through `_derive`, the callback was a closure whose context captured the child and the
/// transform: one allocation more per step (four with the inner future, against NIO's five; now
/// three). A type of its own rather than `MapStep` with the transform's output as a type
/// parameter: a stored closure that returns a generic type returns it indirectly, through a
/// reabstraction thunk that cost a `flatMap` step 280 instructions more than the closure did,
/// while a closure that returns a `Future` returns it directly whatever the future's types.
@usableFromInline
final class FlatMapStep<
    Value: Sendable, Failure: Error, NewValue: Sendable, NewFailure: Error, TransformFailure: Error, InnerFailure: Error
>: DerivedLinks, @unchecked Sendable {
    // @unchecked: as `MapStep`'s; the fields of `DerivedLinks` are guarded as there.

    @usableFromInline typealias Transform = @Sendable (Value) throws(TransformFailure) -> Future<NewValue, InnerFailure>
    /// Resolves the child the step took (`take()`) from the source: a closure that captures
    /// nothing, made where `flatMap` is specialized for its types.
    @usableFromInline typealias Body = @Sendable (FlatMapStep, Future<Value, Failure>) -> Void

    /// The child to resolve; `nil` once the step ran or was abandoned.
    @exclusivity(unchecked) @usableFromInline var child: Future<NewValue, NewFailure>?
    /// The `flatMap`'s transform; `nil` once the step ran or was abandoned.
    @exclusivity(unchecked) @usableFromInline var transform: Transform?
    @usableFromInline let body: Body

    /// Links to `source`, unretained, which the caller holds (see `DerivedLinks.init(source:)`);
    /// `attach(_:)` gives the child next.
    @usableFromInline
    init(source: Unmanaged<_FutureCore>, transform: @escaping Transform, body: @escaping Body) {
        self.transform = transform
        self.body = body
        super.init(source: source)
    }

    /// Gives the step its child, before the step is parked on the source.
    @inlinable
    func attach(_ child: Future<NewValue, NewFailure>) {
        self.child = child
    }

    /// Takes the child and the transform out, for `body` to run once.
    @inlinable
    func take() -> (child: Future<NewValue, NewFailure>, transform: Transform)? {
        guard let child = child.take(), let transform = transform.take() else { return nil }
        return (child, transform)
    }

    override func resolveOwner(from source: _FutureCore) {
        body(self, unsafeDowncast(source, to: Future<Value, Failure>.self))
    }

    override func abandonStep(into list: inout [Any]) {
        if let child = child.take() { list.append(child) }
        if let transform = transform.take() { list.append(transform) }
    }
}
