/// A weak reference in a box of its own: a derived future's link to a source kept by something
/// else (`Upstream`), and the bounded `all`'s callback on its future. A class, so `Upstream`
/// keeps its one-word, bitwise-movable layout (a `weak` field goes through the runtime).
final class WatchedReference<Object: AnyObject & Sendable>: Sendable {
    weak let object: Object?

    init(_ object: Object) { self.object = object }
}

/// A derived future's weak link to a source.
typealias WatchedSource = WatchedReference<_FutureCore>

extension WatchedReference<_FutureCore> {
    /// The source, retained, unless freed.
    var future: _FutureCore? { object }
}
