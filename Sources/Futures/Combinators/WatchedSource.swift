/// A weak reference to an object, in a box of its own: the derived future's link to a source that
/// something else keeps until it can resolve (`Upstream`), and the bounded `Future.all`'s
/// callback on its own future, which must not keep its run alive.
///
/// A class, not a struct with a `weak` field: a value holding a weak reference is copied and
/// moved through the runtime, and `Upstream` would lose its one-word, bitwise-movable layout that
/// every link of a chain moves, weak or not.
final class WatchedReference<Object: AnyObject & Sendable>: Sendable {
    /// The object, unless it was freed.
    weak let object: Object?

    init(_ object: Object) {
        self.object = object
    }
}

/// A derived future's weak link to a source.
typealias WatchedSource = WatchedReference<_FutureCore>

extension WatchedReference<_FutureCore> {
    /// The source, retained, unless it was freed (then nothing can resolve it any more).
    var future: _FutureCore? { object }
}
