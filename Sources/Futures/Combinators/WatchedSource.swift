/// A link to a source that keeps the source's memory but not its life: the derived future's
/// link to a source that something else keeps until it can resolve (see `Upstream`).
///
/// It does what a `weak` reference does without one's cost. A weak reference gives its object a
/// side table: an allocation when the first weak reference is made, and from then on every retain
/// and release of the object takes the runtime's slow path. That was about 650 instructions of a
/// `map` step on a pending source, where NIO's whole step costs about 2,600. This link holds an
/// unowned reference instead, which counts in the object's inline reference count and keeps its
/// memory allocated (not alive: its deinit still runs when the last strong reference goes), and
/// reads it with the runtime's `swift_tryRetain` (`RuntimeTryRetain`), which fails once the
/// deinit has begun, as a weak load does. (It also fails for an immortal object, which a future
/// never is: futures are made at run time, never statically.)
///
/// What it keeps longer than a weak reference did: the memory of a source freed while the link
/// holds it (a promise dropped pending, under a future derived from it that is still held), until
/// the link lets go (its owner resolves or is freed). A weak reference kept the side table only.
typealias WatchedSource = WatchedReference<_FutureCore>

extension WatchedReference<_FutureCore> {
    /// The source, retained, unless its deinit has begun (then nothing can resolve it any more).
    var future: _FutureCore? { object }
}

/// A reference that keeps its object's memory but not its life, read with `swift_tryRetain`:
/// `WatchedSource` for a derived future's source, and the bounded `Future.all`'s callback on its
/// own future, which must not keep its run alive. See `WatchedSource` for why not `weak`.
struct WatchedReference<Object: AnyObject>: @unchecked Sendable {
    // @unchecked: the object is only ever reached retained, through `swift_tryRetain`; the raw
    // address is not a reference that a thread could use unretained.

    /// Keeps the object's memory allocated (its unowned reference count); never read.
    private unowned(safe) let keeper: Object
    /// The object's address, for `swift_tryRetain`.
    private let address: UnsafeMutableRawPointer

    init(_ object: Object) {
        keeper = object
        address = Unmanaged.passUnretained(object).toOpaque()
    }

    /// Whether `object` is the one watched (the same address; the watch keeps that memory).
    func isAt(_ object: Object) -> Bool {
        address == Unmanaged.passUnretained(object).toOpaque()
    }

    /// The object, retained, unless its deinit has begun.
    var object: Object? {
        guard let retained = RuntimeTryRetain.function(address) else { return nil }
        return Unmanaged<Object>.fromOpaque(retained).takeRetainedValue()
    }
}
