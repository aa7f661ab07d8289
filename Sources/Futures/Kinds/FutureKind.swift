/// Who runs a future's work: three bits of the state word; what a reader does about each kind is
/// decided in `ReadStep(_:)`.
@usableFromInline
enum FutureKind: UInt8, CaseIterable, Sendable {
    /// A ``Promise``'s (or a bridge's): a reader waits.
    case promise = 0
    /// Run by the first blocking reader (``LazyFuture``).
    case lazy = 1
    /// Queued on its context; a reader may claim it by the context's rule.
    case background = 2
    /// Runs only on its context (an agent's work, a delayed start): a reader waits.
    case pinned = 3
    /// Resolved by callbacks on its sources, registered when made; a reader demands its sources.
    case derived = 4
    /// Registers its callbacks only when first demanded (derived from a lazy future).
    case lazyDerived = 5

    var className: String {
        switch self {
        case .lazy: "LazyFuture"
        case .background, .pinned: "BackgroundFuture"
        case .promise, .derived, .lazyDerived: "Future"
        }
    }

    var role: String? {
        switch self {
        case .promise: "promise"
        case .derived: "derived"
        case .lazyDerived: "derived, lazy"
        case .lazy, .background, .pinned: nil
        }
    }

    /// A switch, not `==`, which is a call (gated: map step).
    @inlinable
    var isLazy: Bool {
        switch self {
        case .lazy, .lazyDerived: true
        case .promise, .background, .pinned, .derived: false
        }
    }

    @inlinable
    var isDerived: Bool {
        switch self {
        case .derived, .lazyDerived: true
        case .promise, .lazy, .background, .pinned: false
        }
    }
}

/// What a reader must do, from the state word alone: the one decision per kind, used by the
/// inlined read path, the blocking reader's `demand` and `startWithoutBlocking()`;
/// `ReadStepTests` checks the table.
@usableFromInline
enum ReadStep: Equatable, Sendable {
    case readOutcome
    /// Wait for whoever resolves it (after checking this thread is not the runner).
    case waitForRunner
    /// Run it here (a non-blocking reader queues it on the global context).
    case claimAndRun
    /// Claim and run it if the context's rule allows, otherwise wait and ask again.
    case askContext
    /// Pinned work or an uncompleted promise.
    case wait
    /// Walk up to the futures with work and demand them.
    case walkUpstream

    @inlinable
    init(_ word: StateWord) {
        switch word.phase {
        case .resolved: self = .readOutcome
        case .running, .completing: self = .waitForRunner
        case .pending: self = ReadStep(pending: word.kind)
        }
    }

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
