/// What kind of future a future is: who runs its work, and so what a reader that finds it
/// unresolved may do about it. Kept in three bits of the state word; what a reader does about each
/// kind is decided in one place, `ReadStep(_:)`.
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
    /// A switch, not `==`, which is a call (gated: map step).
    @inlinable
    var isLazy: Bool {
        switch self {
        case .lazy, .lazyDerived: true
        case .promise, .background, .pinned, .derived: false
        }
    }

    /// Whether the future waits on other futures instead of having work or a promise of its own.
    @inlinable
    var isDerived: Bool {
        switch self {
        case .derived, .lazyDerived: true
        case .promise, .lazy, .background, .pinned: false
        }
    }
}

/// What a reader that looks at a future must do, decided from its state word alone (the phase,
/// then the kind): the one decision per kind. The inlined read path
/// (`Future._resultAfterRunningOrWaiting(from:)`), the blocking reader's demand
/// (`_FutureCore.demand(firstLook:waited:wakeUp:)`) and the start of a reader that must not block
/// (`startWithoutBlocking()`) each switch over it; `ReadStepTests` checks the whole table.
@usableFromInline
enum ReadStep: Equatable, Sendable {
    /// Resolved: read the outcome.
    case readOutcome
    /// Running or being completed: whoever does it resolves it; wait for them (after the check
    /// that this thread is not the runner, which would wait for ever).
    case waitForRunner
    /// Unstarted lazy work: claim it and run it on this thread (a reader that must not block
    /// queues it on the global context instead).
    case claimAndRun
    /// Unstarted background work: claim it and run it if the context's rule allows (or the
    /// reader outranks the context's threads), otherwise wait and ask again.
    case askContext
    /// Unstarted pinned work (it runs only on its context) or an uncompleted promise: wait.
    case wait
    /// A derived future not yet resolved: walk up to the futures with work and demand them.
    case walkUpstream

    /// The step for a future whose word is `word`.
    @inlinable
    init(_ word: StateWord) {
        switch word.phase {
        case .resolved: self = .readOutcome
        case .running, .completing: self = .waitForRunner
        case .pending: self = ReadStep(pending: word.kind)
        }
    }

    /// The step for an unstarted future of `kind`.
    @inlinable
    init(pending kind: FutureKind) {
        switch kind {
        case .lazy: self = .claimAndRun
        case .background: self = .askContext
        case .pinned, .promise: self = .wait
        case .derived, .lazyDerived: self = .walkUpstream
        }
    }
}
