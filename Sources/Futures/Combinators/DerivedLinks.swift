/// A derived future's links to the futures it is computed from.
///
/// A derived future has no work of its own: callbacks on its sources resolve it. Made from a
/// lazy source, it registers those callbacks (its "connection") only when first demanded, so
/// that nothing runs, and nothing is kept alive, before someone asks. Readers follow the links
/// up to the futures with work and claim or start that work as their kind allows
/// (`_FutureCore.demand`), so a derived future never waits on work that nobody will run.
@usableFromInline
class DerivedLinks: @unchecked Sendable {
    // @unchecked: every field is read and written only while the owning future's parking-lot
    // stripe is locked (`_FutureCore.withLinks`), or in the owner's deinit, when no other thread
    // can reach it.

    /// The first of the futures the owner waits on now, outside an array: most derived futures
    /// have one source. Emptied when the owner resolves.
    @exclusivity(unchecked) private final var first: Upstream
    /// What a link of a chain never uses (`DerivedLinksExtras`), made on its first write. Kept
    /// out of the links themselves, they make a `map` step's links smaller, and its deinit
    /// releases one optional instead of three empty arrays and a closure.
    @exclusivity(unchecked) private final var extras: DerivedLinksExtras?
    /// The owner's first resolution callback, when it is one that is never taken back (a derived
    /// future's connection, an `onSuccess`) and the owner is not lazy: kept here instead of in
    /// the parking lot's table, which a chain of derived futures would otherwise fill with one
    /// entry per link. See `_FutureCore.addResolutionCallbackForGood`.
    @exclusivity(unchecked) final var heldCallback: ParkedCallback?
    /// Whether the owner ever had a callback in the parking lot's table: if not, its resolution
    /// and its deinit skip the table (a hash and a search, for a link of a chain).
    @exclusivity(unchecked) final var hasTableCallbacks = false
    /// Whether these links are a step (`ChildStep`) of a child of a lazy source, not yet parked
    /// on that source: the first reader's demand parks it (`connectOnDemand(owner:first:)`). Beside
    /// `hasTableCallbacks`, in the same word: a step is no larger for it.
    @exclusivity(unchecked) @usableFromInline final var connectsOnDemand = false
    /// Whether these links are a `zip` of two's step (`_ZipPairStep`), which keeps its second
    /// source and its callbacks' registrations in fields of its own instead of the extras: the
    /// walks and the resolution below ask it for them (`pairedSource()`,
    /// `takePaired(more:detachments:)`). In the same word as the two above.
    ///
    /// A second source held strongly (a lazy one) is released with the step, not handed to the
    /// release trampoline here: the step is freed from its owner's deinit, whose release of its
    /// first source already went through the trampoline, and the unread chain of 100,000 zips
    /// through either source (`LongChainTests`) is freed without deep recursion either way.
    @exclusivity(unchecked) final var keepsPair = false

    /// Takes out the closure that registers the callbacks that resolve the owner, to run it once;
    /// `nil` for a future connected when it was made, or already connected.
    ///
    /// Only a future derived from a lazy source has one, so it is kept with the extras, out of
    /// every `map` and `flatMap` step's links.
    final func takeConnection() -> (@Sendable (_FutureCore) -> Void)? {
        extras?.connect.take()
    }

    /// The first source, if it is linked and alive: the lazy source a step waiting for demand
    /// parks on (`connectOnDemand(owner:first:)`).
    final var linkedFirstSource: _FutureCore? { first.future }

    /// Clears the mark of a step that waits for a reader's demand (`connectsOnDemand`), for a
    /// future resolved without it (a cancel); whether it was set: the step will never run.
    final func forgetStepConnection() -> Bool {
        defer { connectsOnDemand = false }
        return connectsOnDemand
    }

    /// The extras, made if they were not.
    private final var madeExtras: DerivedLinksExtras {
        if let extras { return extras }
        let made = DerivedLinksExtras()
        extras = made
        return made
    }

    /// The other futures the owner waits on now, after the first.
    private final var moreSources: [Upstream] {
        get { extras?.moreSources ?? [] }
        set { if extras != nil || !newValue.isEmpty { madeExtras.moreSources = newValue } }
        _modify { yield &madeExtras.moreSources }
    }

    /// Whether a reader asked for the value without blocking, so that sources met later are
    /// started on a context rather than run by whichever thread resolves the current one.
    final var demandedWithoutBlocking: Bool {
        get { extras?.demandedWithoutBlocking ?? false }
        set { if extras != nil || newValue { madeExtras.demandedWithoutBlocking = newValue } }
    }

    /// The blocking readers parked below this future, to wake when its sources change (see
    /// `ParkedReaderWakeUp`).
    final var parkedReaders: [ParkedReaderWakeUp] {
        get { extras?.parkedReaders ?? [] }
        set { if extras != nil || !newValue.isEmpty { madeExtras.parkedReaders = newValue } }
        _modify { yield &madeExtras.parkedReaders }
    }

    /// What the owner undoes once it is decided: the callbacks it parked on sources that may
    /// still be pending (the losers of a race), and the timer of a timeout. See `keep(_:)`.
    final var detachments: [Detachment] {
        get { extras?.detachments ?? [] }
        set { if extras != nil || !newValue.isEmpty { madeExtras.detachments = newValue } }
        _modify { yield &madeExtras.detachments }
    }

    /// Whether a reader of a future derived from the owner may find work above it: the owner
    /// may switch sources (a `flatMap`'s child), or links to a source that leads to work. A
    /// future derived from an owner that leads to none (a chain of `map`s on a promise) keeps no
    /// link to it (`Upstream`). Set once, when the links are made.
    final let leadsToWork: Bool

    /// Whether blocking readers that walk through these links start the lazy work they find
    /// beyond them on a context instead of running it on their own thread: a timeout's, whose
    /// reader must stay free to leave at the deadline. Set once, when the links are made.
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

    /// The links of a future derived from `source` alone and connected when made.
    ///
    /// `source` comes unretained, and is read borrowed: an initializer takes its arguments owned,
    /// so a reference passed as one was retained by the caller and released here, two atomic
    /// operations on each `map` step, for a source that is only watched. `first` is initialized
    /// here, not given a default and assigned: the assignment destroyed the default first, an
    /// outlined call on each step.
    /// `switchesSources`: whether the owner may wait on other futures later (`wait(on:)`). Its
    /// only source is linked only if it leads to work (`Upstream.init(ifLeadingToWork:)`).
    @usableFromInline
    init(source: Unmanaged<_FutureCore>, switchesSources: Bool) {
        first = source._withUnsafeGuaranteedRef { Upstream(ifLeadingToWork: $0) }
        leadsToWork = switchesSources || first.isLinked
        readersStartLazyWork = false
    }

    /// The links of a zip of two, whose first source is `source`: linked whatever its kind, as
    /// the second is (`_ZipPairStep`).
    init(firstOfPair source: _FutureCore) {
        first = Upstream(source)
        leadsToWork = true
        readersStartLazyWork = false
    }

    /// The second source of links that keep a pair (`keepsPair`), if it is still alive; `nil`
    /// for other links.
    func pairedSource() -> _FutureCore? { nil }

    /// For links that keep a pair, under the lock: moves the second source into `more` if it was
    /// held strongly (a watched one is dropped here), and the registrations still to take back
    /// into `detachments`. Nothing for other links.
    func takePaired(more: inout [Upstream], detachments: inout [Detachment]) {}

    private final func setFirst(_ source: _FutureCore?) {
        first = source.map { Upstream(ifLeadingToWork: $0) } ?? Upstream()
    }

    private final func setSources(_ sources: [_FutureCore]) {
        // A zip of two's step never switches sources (only a `flatMap`'s child and a bounded
        // `all` do): its second would stay beside the new ones.
        assert(!keepsPair, "the sources of a zip of two were replaced")
        setFirst(sources.first)
        moreSources = sources.count > 1 ? sources.dropFirst().map { Upstream(ifLeadingToWork: $0) } : []
    }

    /// Puts `source` in `slot` of the sources (slot 0 is the first, the others follow in order,
    /// empty ones skipped), and returns the future the slot held strongly, if any, for the caller
    /// to release outside the lock. A bounded `all` keeps each future in flight in a slot of its
    /// own, so that a new one replaces one source instead of rebuilding the list.
    final func replaceSource(inSlot slot: Int, with source: _FutureCore) -> _FutureCore? {
        // The previous source is moved out of its link (`take()`), not copied out and then
        // released by the overwrite: a retain and a release per job of a bounded `all`.
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

    /// The futures the owner waits on now that are still alive, without an array when there is
    /// one (most derived futures): what a walk up the links follows.
    final var sourcesToWalk: SourcesToWalk {
        if !keepsPair, extras?.moreSources.isEmpty ?? true {
            if let future = first.future { return .one(future) }
            return .several([])
        }
        return .several(upstreams)
    }

    /// The one future the owner waits on now, if it waits on one alone and that one is linked
    /// and alive: what the walks that follow a future's only source take
    /// (`_FutureCore.reaches(_:)`, the wait-cycle search). `nil` for several sources, even if
    /// only one of them is linked: another may resolve the owner.
    final var soleUpstream: _FutureCore? {
        guard !keepsPair, extras?.moreSources.isEmpty ?? true else { return nil }
        return first.future
    }

    /// The futures the owner waits on now that are still alive.
    final var upstreams: [_FutureCore] {
        get {
            // One array, of its final size: `[first] + moreSources.compactMap(\.future)` made three.
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

    /// Moves the sources and the detachments into `taken`, which is empty, and empties them here,
    /// with the parked readers' wake-ups, for a future that has resolved or was cancelled: the
    /// caller releases and undoes them outside the lock (`releaseTaken(_:)`).
    ///
    /// Links with one source and nothing else (a chain's) fill only `taken.owned`: no arrays are
    /// made for the rest, and none released.
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

    /// Hands what the links hold to the release trampoline, so that freeing a long unread chain
    /// releases it link by link instead of one nested deinit per link.
    final func releaseIteratively() {
        // A resolved link of a chain holds none of these: no trip through the trampoline.
        guard first.isOwned || extras != nil || heldCallback != nil else { return }
        ReleaseTrampoline.release { list in
            if let owner = first.take() { list.append(owner) }
            // The other sources and the connection, with the rest of the extras. A timer holds
            // its future until it fires or is cancelled, and a callback holds the future it
            // resolves, so an owner freed with detachments kept only finished ones: they go with
            // the extras too.
            if let extras {
                list.append(extras)
                self.extras = nil
            }
            // The callback of a derived future that nobody will resolve now: a pending chain freed
            // link by link, not one nested deinit per link.
            if let heldCallback {
                heldCallback.abandon(into: &list)
                list.append(heldCallback)
                self.heldCallback = nil
            }
        }
    }
}

/// The fields of `DerivedLinks` that a link of a chain never uses: the connection of a future
/// derived from a lazy source, more than one source, a demand without blocking, parked readers'
/// wake-ups, detachments. Guarded as the links are.
final class DerivedLinksExtras {
    /// See `DerivedLinks.takeConnection()`.
    @exclusivity(unchecked) var connect: (@Sendable (_FutureCore) -> Void)?
    @exclusivity(unchecked) var moreSources: [Upstream] = []
    @exclusivity(unchecked) var demandedWithoutBlocking = false
    @exclusivity(unchecked) var parkedReaders: [ParkedReaderWakeUp] = []
    @exclusivity(unchecked) var detachments: [Detachment] = []
}

/// What a resolved derived future's links let go of, to release and undo outside its stripe's
/// lock: the first source if it was held strongly (a watched link was dropped under the lock:
/// that frees no future), and the rest, which links with one source and nothing else do not have.
struct TakenLinks {
    /// The other sources and the detachments.
    struct Rest {
        var more: [Upstream] = []
        var detachments: [Detachment] = []
    }

    var owned: _FutureCore?
    /// `nil` when the links held one source and nothing else.
    var rest: Rest?

    /// Undoes the detachments and forgets them. Nothing to do, and no array made, for links that
    /// held one source and nothing else.
    mutating func undoDetachments() {
        guard rest != nil else { return }
        var detachments: [Detachment] = []
        swap(&detachments, &rest!.detachments)
        for detachment in detachments { detachment.detach() }
    }

    /// Moves the sources into the release trampoline's `list`.
    mutating func move(into list: inout [Any]) {
        if let owned = owned.take() { list.append(owned) }
        if let more = rest.take()?.more, !more.isEmpty { list.append(more) }
    }

    /// Whether releasing these sources can free a future.
    var holdsAStrongSource: Bool { owned != nil || !(rest?.more.isEmpty ?? true) }
}
