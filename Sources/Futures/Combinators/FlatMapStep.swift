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
