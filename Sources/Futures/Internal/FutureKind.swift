/// What kind of future a future is: who runs its work, and so what a reader that finds it
/// unresolved may do about it. Kept in three bits of the state word; the one place that acts on it
/// is `_FutureCore.demand(firstLook:waited:)`, a switch over this type.
@usableFromInline
enum FutureKind: UInt8, CaseIterable, Sendable {
    /// Completed by a ``Promise`` (or a bridge built on one): nothing to run, a reader waits.
    case promise = 0
    /// Work run by the first blocking reader, on its own thread (``LazyFuture``).
    case lazy = 1
    /// Work queued on its context; a reader may claim it by the context's rule (``BackgroundFuture``).
    case background = 2
    /// Work that runs only on its context: an agent's, or a delayed start. A reader waits.
    case pinned = 3
    /// Resolved by callbacks on its sources, registered when it is made (`map` of a background
    /// future, `zip`, `all`…). A reader demands its sources.
    case derived = 4
    /// Like `derived`, but its callbacks are registered only when it is first demanded: derived
    /// from a lazy future, so nothing runs before someone reads.
    case lazyDerived = 5

    /// The public class a future of this kind is an instance of, for messages.
    var className: String {
        switch self {
        case .lazy: "LazyFuture"
        case .background, .pinned: "BackgroundFuture"
        case .promise, .derived, .lazyDerived: "Future"
        }
    }

    /// What a message adds after the type to say how the future resolves, if the class does not.
    var role: String? {
        switch self {
        case .promise: "promise"
        case .derived: "derived"
        case .lazyDerived: "derived, lazy"
        case .lazy, .background, .pinned: nil
        }
    }

    /// Whether nothing runs until someone reads: lazy futures and what is derived from them.
    var isLazy: Bool { self == .lazy || self == .lazyDerived }

    /// Whether the future waits on other futures instead of having work or a promise of its own.
    var isDerived: Bool { self == .derived || self == .lazyDerived }
}
