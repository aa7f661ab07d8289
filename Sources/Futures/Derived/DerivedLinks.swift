/// A derived future's links to the futures it is computed from. It has no work of its own:
/// callbacks on its sources resolve it, registered (its "connection") on first demand when the
/// source is lazy. Readers follow the links up to the work and claim or start it
/// (`_FutureCore.demand`), so a derived future never waits on work nobody will run.
@usableFromInline
class DerivedLinks: @unchecked Sendable {
    // @unchecked: every field is touched only under the owner's parking-lot stripe lock
    // (`_FutureCore.withLinks`) or in the owner's deinit.

    /// The first source, outside an array (most have one). Emptied when the owner resolves.
    @exclusivity(unchecked) private final var first: Upstream
    /// What a chain link never uses (`DerivedLinksExtras`), made on first write.
    @exclusivity(unchecked) private final var extras: DerivedLinksExtras?
    /// The owner's first never-taken-back callback when the owner is not lazy, kept here so a
    /// chain does not fill the table with one entry per link (`addResolutionCallbackForGood`).
    @exclusivity(unchecked) final var heldCallback: ParkedCallback?
    /// Whether the owner ever had a table callback; if not, resolution and deinit skip the table.
    @exclusivity(unchecked) final var hasTableCallbacks = false
    /// Whether this is a lazy source's child step (`ChildStep`) not yet parked on that source:
    /// the first reader's demand parks it (`connectOnDemand(owner:first:)`).
    @usableFromInline final var connectsOnDemand = false

    /// Takes out the connection closure, to run once; `nil` if connected when made or already.
    final func takeConnection() -> (@Sendable (_FutureCore) -> Void)? { extras?.connect.take() }

    /// The first source, if linked and alive (the lazy source a waiting step parks on).
    final var linkedFirstSource: _FutureCore? { first.future }

    /// Clears `connectsOnDemand` for a future resolved without demand; whether it was set.
    final func forgetStepConnection() -> Bool {
        defer { connectsOnDemand = false }
        return connectsOnDemand
    }

    private final var madeExtras: DerivedLinksExtras {
        if let extras { return extras }
        let made = DerivedLinksExtras()
        extras = made
        return made
    }

    private final var moreSources: [Upstream] {
        get { extras?.moreSources ?? [] }
        set { if extras != nil || !newValue.isEmpty { madeExtras.moreSources = newValue } }
        _modify { yield &madeExtras.moreSources }
    }

    /// Whether a reader asked without blocking: sources met later are started on a context.
    final var demandedWithoutBlocking: Bool {
        get { extras?.demandedWithoutBlocking ?? false }
        set { if extras != nil || newValue { madeExtras.demandedWithoutBlocking = newValue } }
    }

    /// Blocking readers parked below, to wake when sources change (`ParkedReaderWakeUp`).
    final var parkedReaders: [ParkedReaderWakeUp] {
        get { extras?.parkedReaders ?? [] }
        set { if extras != nil || !newValue.isEmpty { madeExtras.parkedReaders = newValue } }
        _modify { yield &madeExtras.parkedReaders }
    }

    /// What the owner undoes once decided: callbacks on race losers, a timeout's timer.
    final var detachments: [Detachment] {
        get { extras?.detachments ?? [] }
        set { if extras != nil || !newValue.isEmpty { madeExtras.detachments = newValue } }
        _modify { yield &madeExtras.detachments }
    }

    /// Whether a reader of a future derived from the owner may find work above it (it may switch
    /// sources, or links to work). Set once.
    final let leadsToWork: Bool

    /// Whether blocking readers start lazy work beyond these links on a context (a timeout's,
    /// whose reader must stay free to leave at the deadline). Set once.
    final let readersStartLazyWork: Bool

    @usableFromInline
    init(
        upstreams: [_FutureCore], connect: (@Sendable (_FutureCore) -> Void)?, readersStartLazyWork: Bool = false
    ) {
        first = Upstream()
        leadsToWork = true
        self.readersStartLazyWork = readersStartLazyWork
        if let connect { madeExtras.connect = connect }
        if !upstreams.isEmpty { setSources(upstreams) }
    }

    /// The links of a future derived from `source` alone, connected when made. `first` is
    /// initialized rather than assigned, to spare an outlined destroy (gated: map step). Linked
    /// only if it leads to work.
    @usableFromInline
    init(source: _FutureCore, switchesSources: Bool) {
        first = Upstream(ifLeadingToWork: source)
        leadsToWork = switchesSources || first.isLinked
        readersStartLazyWork = false
    }

    /// A zip of two's links: the first source is linked whatever its kind, as the second is.
    init(firstOfPair source: _FutureCore) {
        first = Upstream(source)
        leadsToWork = true
        readersStartLazyWork = false
    }

    /// Whether these are a `zip` of two's links (`_ZipPairStep`), which keep their second source
    /// and registrations themselves (`pairedSource()`, `takePaired(more:detachments:)`). A strongly
    /// held second source is released with the step, whose deinit already went through the
    /// trampoline.
    var keepsPair: Bool { false }

    /// Whether these are a step whose child was decided without it (a cancel), so that running it
    /// would do nothing and a pending source may drop it (`ChildStep`). Read under the source's
    /// stripe lock while parked there.
    var isSpent: Bool { false }

    /// For a cancelled owner, under its lock (`_dropLinks`): a step's transform, which will not
    /// run now, to release at once (`ChildStep`); `nil` for other links.
    func takeUnrunTransform() -> Any? { nil }

    /// The second source of a pair's links, if alive; `nil` for other links.
    func pairedSource() -> _FutureCore? { nil }

    /// For a pair's links, under the lock: moves a strongly held second source into `more` and
    /// the registrations into `detachments`.
    func takePaired(more: inout [Upstream], detachments: inout [Detachment]) {}

    private final func setFirst(_ source: _FutureCore?) {
        first = source.map { Upstream(ifLeadingToWork: $0) } ?? Upstream()
    }

    private final func setSources(_ sources: [_FutureCore]) {
        // Only a `flatMap`'s child and a bounded `all` switch sources.
        assert(!keepsPair, "the sources of a zip of two were replaced")
        setFirst(sources.first)
        moreSources = sources.count > 1 ? sources.dropFirst().map { Upstream(ifLeadingToWork: $0) } : []
    }

    /// Puts `source` in `slot` (0 is the first) and returns the future the slot held strongly,
    /// for the caller to release outside the lock. A bounded `all` keeps one slot per job.
    final func replaceSource(inSlot slot: Int, with source: _FutureCore) -> _FutureCore? {
        // Moved out (`take()`), not copied then overwritten: a retain and a release less per job.
        if slot == 0 {
            let previous = first.take()
            first = Upstream(source)
            return previous
        }
        while moreSources.count < slot { moreSources.append(Upstream()) }
        let previous = moreSources[slot - 1].take()
        moreSources[slot - 1] = Upstream(source)
        return previous
    }

    /// The live sources, without an array when there is one: what a walk follows.
    final var sourcesToWalk: SourcesToWalk {
        if !keepsPair, extras?.moreSources.isEmpty ?? true {
            if let future = first.future { return .one(future) }
            return .several([])
        }
        return .several(upstreams)
    }

    /// The owner's only source, if it has one alone and it is linked and alive (`reaches(_:)`, the
    /// wait-cycle search); `nil` for several, since another may resolve the owner.
    final var soleUpstream: _FutureCore? {
        guard !keepsPair, extras?.moreSources.isEmpty ?? true else { return nil }
        return first.future
    }

    /// The live sources.
    final var upstreams: [_FutureCore] {
        get {
            let more = moreSources
            var sources: [_FutureCore] = []
            sources.reserveCapacity(1 + more.count + (keepsPair ? 1 : 0))
            if let first = first.future { sources.append(first) }
            if keepsPair, let second = pairedSource() { sources.append(second) }
            for source in more {
                if let future = source.future { sources.append(future) }
            }
            return sources
        }
        set { setSources(newValue) }
    }

    /// Moves the sources and detachments into the empty `taken` and drops parked readers, for a
    /// resolved or cancelled owner; the caller releases and undoes them outside the lock. A
    /// chain link fills only `taken.owned`.
    final func takeForResolution(into taken: inout TakenLinks) {
        taken.owned = first.take()
        guard extras != nil || keepsPair else { return }
        var rest = TakenLinks.Rest()
        if let extras {
            if !extras.parkedReaders.isEmpty { extras.parkedReaders = [] }
            if !extras.moreSources.isEmpty { swap(&rest.more, &extras.moreSources) }
            if !extras.detachments.isEmpty { swap(&rest.detachments, &extras.detachments) }
        }
        // After the swaps, which would drop what it appends.
        if keepsPair { takePaired(more: &rest.more, detachments: &rest.detachments) }
        taken.rest = rest
    }

    /// Hands what the links hold to the release trampoline, so a long unread chain is freed
    /// iteratively rather than by nested deinits.
    final func releaseIteratively() {
        guard first.isOwned || extras != nil || heldCallback != nil else { return }
        ReleaseTrampoline.release { list in
            if let owner = first.take() { list.append(owner) }
            // Timers and callbacks hold their futures until done, so detachments left here
            // are finished ones: they go with the extras.
            if let extras {
                list.append(extras)
                self.extras = nil
            }
            // The callback of a derived future nobody will resolve now.
            if let heldCallback {
                heldCallback.abandon(into: &list)
                list.append(heldCallback)
                self.heldCallback = nil
            }
        }
    }
}

/// The `DerivedLinks` fields a chain link never uses. Guarded as the links are; `detachments`,
/// appended to once per source of a fan-in, skips exclusivity checks (gated: all per input, pending).
final class DerivedLinksExtras {
    var connect: (@Sendable (_FutureCore) -> Void)?
    var moreSources: [Upstream] = []
    var demandedWithoutBlocking = false
    var parkedReaders: [ParkedReaderWakeUp] = []
    @exclusivity(unchecked) var detachments: [Detachment] = []
}

/// What a resolved owner's links let go of, to release and undo outside the lock: the first
/// source if held strongly, and the rest (absent for one source and nothing else).
struct TakenLinks {
    struct Rest {
        var more: [Upstream] = []
        var detachments: [Detachment] = []
    }

    var owned: _FutureCore?
    var rest: Rest?

    /// Undoes and forgets the detachments.
    mutating func undoDetachments() {
        guard rest != nil else { return }
        var detachments: [Detachment] = []
        swap(&detachments, &rest!.detachments)
        for detachment in detachments { detachment.detach() }
    }

    mutating func move(into list: inout [Any]) {
        if let owned = owned.take() { list.append(owned) }
        if let more = rest.take()?.more, !more.isEmpty { list.append(more) }
    }

    var holdsAStrongSource: Bool { owned != nil || !(rest?.more.isEmpty ?? true) }
}
