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
