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

/// A derived future's link to one source.
///
/// Why not always a strong reference: a source keeps the futures derived from it alive through
/// the callbacks it holds for them (it must: a `map` with an `onSuccess` and no other reference
/// still has to run when its source resolves), and a derived future that also held its source
/// strongly made a cycle through the parking lot. A promise and a `map` of it, both dropped while
/// pending, were never freed, nor a chain of maps on it. So a derived future holds strongly only
/// the sources that nothing else keeps until they can resolve: lazy futures, and futures derived
/// from them, whose work runs only when a reader asks. The others are held by whatever will
/// resolve them while they still can (a promise by its holder, a background or pinned future by
/// its context's queue until its work runs, an eager derived future by its own sources'
/// callbacks); a weak link to them (`WatchedSource`) is enough for the readers that walk up to
/// their work, and once nothing can resolve them, nothing keeps them or what waits for them.
///
/// A background future on a pool of Futures' own is held strongly too
/// (`isHeldStronglyByDerivedFutures`): it always resolves (the pool runs every job it queued,
/// and a cancel resolves it at once), and its resolution hands over the callback that closed the
/// cycle. Not on a context made from a closure, which may never run the work.
struct Upstream {
    private enum Link {
        case owned(_FutureCore)
        case watched(WatchedSource)
        /// A source no reader can find work above: counted, not referenced.
        case unlinked
    }

    private var link: Link?

    /// A link to `future`: strong or weak as its kind needs (see above).
    init(_ future: _FutureCore) {
        link = future.isHeldStronglyByDerivedFutures ? .owned(future) : .watched(WatchedSource(future))
    }

    /// A link to `future` if a reader may find work above it, and an unlinked place otherwise (a
    /// promise's future, a pinned one, a derived future that leads to no work): a walk up the
    /// links has nothing to do there, and a weak reference would cost every such source a side
    /// table. The place still counts as a source (`DerivedLinks.soleUpstream`).
    init(ifLeadingToWork future: _FutureCore) {
        let leadsToWork =
            switch future._kind {
            case .lazy, .lazyDerived, .background: true
            case .derived: future._withLinksBorrowed({ $0.leadsToWork }) ?? false
            case .promise, .pinned: false
            }
        if leadsToWork {
            self.init(future)
        } else {
            self.init(unlinked: ())
        }
    }

    /// An unlinked place (see `init(ifLeadingToWork:)`).
    private init(unlinked: Void) {
        link = .unlinked
    }

    /// A link that holds `future` strongly, whatever its kind: one that a link held so already,
    /// moved into another (`_ZipPairStep.takePaired(more:detachments:)`).
    init(holding future: _FutureCore) {
        link = .owned(future)
    }

    /// An empty link: a free slot of `DerivedLinks.replaceSource(inSlot:with:)`.
    init() {
        link = nil
    }

    /// The source, unless it was freed (then nothing can resolve it any more).
    var future: _FutureCore? {
        switch link {
        case .owned(let future)?: future
        case .watched(let watched)?: watched.future
        case .unlinked?, nil: nil
        }
    }

    /// The source if this link holds it strongly.
    var owner: _FutureCore? {
        if case .owned(let future)? = link { return future }
        return nil
    }

    /// Whether this link holds its source, strongly or weakly.
    var isLinked: Bool {
        switch link {
        case .owned?, .watched?: true
        case .unlinked?, nil: false
        }
    }

    /// Whether this link holds its source strongly.
    var isOwned: Bool {
        if case .owned? = link { return true }
        return false
    }

    /// Empties the link; returns the source it held strongly, moved out, if any (a watched link
    /// is dropped here: that frees no future).
    mutating func take() -> _FutureCore? {
        switch link.take() {
        case .owned(let future)?: future
        case .watched?, .unlinked?, nil: nil
        }
    }
}

/// Something a derived future undoes once it is decided.
enum Detachment {
    /// A callback it parked on a source.
    case callback(CallbackRegistration)
    /// The timer of a timeout, which holds the future until it fires.
    case timer(DelayedWork.Timer)
    /// What to do once the future is decided (a fold cancels the chain it made).
    case action(@Sendable () -> Void)

    /// Takes the callback back from its source, or cancels the timer.
    func detach() {
        switch self {
        case .callback(let registration): _FutureCore.removeResolutionCallback(registration)
        case .timer(let timer): timer.cancel()
        case .action(let action): action()
        }
    }
}

extension _FutureCore {
    /// Whether this is a derived future whose readers start lazy work beyond it on a context
    /// (`DerivedLinks.readersStartLazyWork`). Reads a field that never changes: no lock.
    final var readersStartLazyWork: Bool {
        _withLinksBorrowed { $0.readersStartLazyWork } ?? false
    }

    /// Whether a future derived from this one holds it strongly (`Upstream`): a lazy future,
    /// which nothing else keeps until it is read, and a background future on a pool of Futures'
    /// own, which always resolves, so that a strong link to it makes no lasting cycle.
    final var isHeldStronglyByDerivedFutures: Bool {
        let kind = _kind
        if kind.isLazy { return true }
        guard kind == .background, let scheduler = _contextScheduler else { return false }
        return scheduler.runsEveryJob
    }

    /// Runs `body` with this derived future's links, holding its stripe's lock; `nil` for a
    /// future that has none.
    final func withLinks<R>(_ body: (DerivedLinks) -> R) -> R? {
        guard let links = _links.sources else { return nil }
        return ParkingLot.withStripe(forKey: ObjectIdentifier(self)) { stripe in
            stripe.withLock { links._withUnsafeGuaranteedRef(body) }
        }
    }

    /// For a derived future: connects it to its sources if it is lazy and not yet connected, and
    /// returns the sources it currently waits on. `nil` for a future with work of its own.
    ///
    /// `withoutBlocking` marks the future as demanded by a reader that must not run work on its
    /// own thread (`get()`, `result(timeout:)`), so that sources it meets later are started on a
    /// context rather than run by whichever thread resolves its current source.
    ///
    /// `wakeUp`, from a blocking reader about to park, is kept in the links, read together with
    /// the sources, so that a change of sources wakes that reader (`ParkedReaderWakeUp`).
    final func upstreamsForDemand(withoutBlocking: Bool, wakeUp: ParkedReaderWakeUp? = nil) -> SourcesToWalk? {
        // The connection is taken into a variable, not returned: returned through `withLinks`'s
        // generic result, the closure was wrapped in a thunk, one allocation more.
        var connect: (@Sendable (_FutureCore) -> Void)?
        var connectsStep = false
        var stepSource: _FutureCore?
        let sources = withLinks { links -> SourcesToWalk in
            connect = links.takeConnection()
            connectsStep = links.forgetStepConnection()
            if connectsStep { stepSource = links.linkedFirstSource }
            if withoutBlocking { links.demandedWithoutBlocking = true }
            if let wakeUp { links.register(wakeUp) }
            return links.sourcesToWalk
        }
        guard let sources else { return nil }
        connect?(self)
        // Only a step is marked to connect on demand (`_attachStep`, `connectOnDemandLater`).
        if connectsStep, let step = _links.sources?.takeUnretainedValue() as? any DerivedStep {
            step.connectOnDemand(owner: self, first: stepSource)
        }
        return sources
    }

    /// Switches this derived future to wait on `source` (a `flatMap`'s inner future) and demands
    /// it.
    ///
    /// An eager future, or one a reader asked for without blocking, starts `source` without
    /// blocking. A lazy future gets here only after a blocking read connected it, on the thread
    /// that resolved its source: that thread demands `source` as that reader would, so a chain of
    /// lazy flatMaps runs on the reader's thread in one pass instead of one walk per link.
    ///
    /// A `source` that is this future, or reaches it through derived futures, would never
    /// resolve (Promises/A+ 2.3.1): this future fails with ``FutureCycleError`` instead, or traps
    /// when its error type cannot hold it (`_resolveWaitingOnItself()`).
    @usableFromInline
    final func wait(on source: _FutureCore) {
        if source.reaches(self) {
            _resolveWaitingOnItself()
            return
        }
        let kind = _kind
        var parkedReaders: [ParkedReaderWakeUp] = []
        var previous: [_FutureCore] = [source]
        let startWithoutBlocking =
            withLinks { links -> Bool in
                swap(&previous, &links.upstreams)
                parkedReaders = links.takeParkedReaders()
                return kind == .derived || links.demandedWithoutBlocking
            } ?? true
        releaseOutsideTheLock(&previous)
        if startWithoutBlocking {
            walkUpstream(from: source, withoutBlocking: true) { $0.startWithoutBlocking() }
        } else {
            // Only work that has not started: this thread is no reader, and may be the one running
            // `source`'s work (a lazy future whose work completes the promise this future's source
            // waited on, and that the transform then returns). `demand` on running work is a reader's
            // look, which traps when the work runs on this thread ("read from inside its own work"),
            // though nothing reads it: this future merely waits on it, and resolves when it returns.
            // Work seen `pending` is not this thread's (a thread's own work is `running` before its
            // closure starts), so the recursion check in `demand` cannot fire for it.
            walkUpstream(from: source, withoutBlocking: false) { root in
                if root._word.phase == .pending { _ = root.demand(firstLook: true, waited: .zero) }
            }
        }
        _wakeWaiters()
        // Readers parked on futures derived from this one walked up through it before the switch:
        // they must walk again to find `source` (see `ParkedReaderWakeUp`).
        for reader in parkedReaders { reader.wake() }
    }

    /// Makes `source` the future this derived future waits on in `slot` (a bounded `all`'s
    /// future in flight there), so that blocking readers demand it when they next look.
    ///
    /// It starts nothing (the caller starts each source as it makes it). It wakes only the parked
    /// readers whose walk passed here (`ParkedReaderWakeUp`) and that would act on `source`
    /// (`NewSourceCall`): a reader that runs future work, and would claim `source` if it is
    /// queued; any reader, if `source` is lazy, derived, or queued on a context that cannot start
    /// a runner for it. Such a reader's own future does not resolve when the sources change, and
    /// it would sleep until the new sources ran, for ever if it is the thread that must run them.
    /// The other readers would park again: a wake-up per source cost a bounded `all` of trivial
    /// jobs read from the main thread about half of each job's time, and a parked reader looks
    /// again anyway when it rechecks queued work.
    final func replaceUpstream(inSlot slot: Int, with source: _FutureCore) {
        let call = NewSourceCall(for: source)
        let (previous, parkedReaders) =
            withLinks { links -> (_FutureCore?, [ParkedReaderWakeUp]) in
                guard !_isResolved else { return (nil, []) }
                return (links.replaceSource(inSlot: slot, with: source), links.takeParkedReaders(calledBy: call))
            } ?? (nil, [])
        _ = previous  // released outside the lock: its deinit may run arbitrary code
        for reader in parkedReaders { reader.wake() }
    }

    /// Forgets the sources of a derived future that has resolved, so that it keeps nothing alive,
    /// and undoes its detachments: the callbacks it left on sources still pending (the losers of
    /// its race: a lazy source nobody will run now, a `first(of:)` rival, the source of a timeout
    /// that fired) go from their futures, and its timeout's timer is cancelled. What they held
    /// is released here, outside the lock.
    @usableFromInline
    final func dropUpstreams() {
        guard let links = _links.sources else { return }
        // Moved out under the lock, not copied: a link of a chain has one source and nothing else,
        // and copies cost a retain and a release each.
        var taken = TakenLinks()
        ParkingLot.withStripe(forKey: ObjectIdentifier(self)) { stripe in
            stripe.withLock {
                links._withUnsafeGuaranteedRef { $0.takeForResolution(into: &taken) }
            }
        }
        releaseTaken(&taken)
    }

    /// Undoes the detachments and releases the sources a resolved derived future's links let go
    /// of (`taken`), outside the lock they were taken under.
    final func releaseTaken(_ taken: inout TakenLinks) {
        taken.undoDetachments()
        guard taken.holdsAStrongSource else { return }
        ReleaseTrampoline.release { list in taken.move(into: &list) }
    }

    /// Releases sources that a derived future let go of, after its stripe's lock is released.
    ///
    /// Found by the derived-futures stress of issue 25 (the fuzzer's hang "once in about 8,000
    /// programs"): `dropUpstreams` used to release its sources inside `withLinks`. A source whose
    /// last reference that was (a fold's inner chain, when the fold fails fast at a cancelled
    /// source before its chain resolves) is freed there, pending with callbacks, and its deinit
    /// takes its own stripe's lock to drop them; when both futures map to the same stripe (1 in
    /// 64), the thread waits for ever on the non-recursive lock it holds, and so does every reader
    /// and resolver of any future of that stripe. A lost wake-up in appearance only. The release
    /// goes through the trampoline, so that a long unread chain is freed without deep recursion.
    private func releaseOutsideTheLock<Released>(_ released: inout [Released]) {
        guard !released.isEmpty else { return }
        ReleaseTrampoline.release { list in
            list.append(released)
            released = []
        }
    }

    /// Forgets everything a derived future resolved by its own cancellation still links to: its
    /// sources, its detachments (undone: the callbacks it parked on sources go from them, its
    /// timeout's timer is cancelled) and, if it was never connected, its connection (the closure
    /// that holds the transform and the source). Nothing for a future with work of its own.
    ///
    /// Before, a cancel resolved the future and kept them: `resolve(with:)` drops the sources, but
    /// a cancel does not go through it. A transform that captured the object that holds the
    /// derived future made a cycle (object → future → links → transform → object) that a cancel
    /// never broke, against the promise that a resolved future holds its result and nothing else.
    /// An eager future's callbacks on its sources that it does not keep as detachments (a `map`'s)
    /// still hold the transform until those sources resolve or are freed; they no longer keep the
    /// sources alive.
    final func _dropLinks() {
        guard let links = _links.sources else { return }
        var taken = TakenLinks()
        var connect: (@Sendable (_FutureCore) -> Void)?
        var stepNeverParked = false
        ParkingLot.stripe(for: self).withLock {
            links._withUnsafeGuaranteedRef { links in
                links.takeForResolution(into: &taken)
                connect = links.takeConnection()
                stepNeverParked = links.forgetStepConnection()
            }
        }
        taken.undoDetachments()
        // Released here, outside the stripe's lock (their deinits may take stripes' locks), and
        // through the trampoline, so that a long unread chain is freed without deep recursion.
        ReleaseTrampoline.release { list in
            taken.move(into: &list)
            if let connect { list.append(connect) }
            connect = nil
            // A lazy child's step that no reader parked will never run: its transform goes now,
            // as the connection's closure that held it did (what it captures may hold this
            // future). This thread cleared the mark, so no other thread touches the step.
            if stepNeverParked, let step = links.takeUnretainedValue() as? any DerivedStep {
                step.abandonStep(into: &list)
            }
        }
    }

    /// Keeps `registration`, a callback this derived future parked on a source, to take it back
    /// once the future is decided (`dropUpstreams`); takes it back at once if it already is.
    @usableFromInline
    final func keep(_ registration: CallbackRegistration?) {
        guard let registration else { return }
        keep(.callback(registration))
    }

    /// Keeps `registrations` as `keep(_:)` keeps one, under one lock.
    @usableFromInline
    final func keep(_ registrations: [CallbackRegistration]) {
        guard !registrations.isEmpty else { return }
        let kept = withLinks { links -> Bool in
            guard !_isResolved else { return false }
            links.detachments.reserveCapacity(links.detachments.count + registrations.count)
            for registration in registrations { links.detachments.append(.callback(registration)) }
            return true
        }
        if kept != true {
            for registration in registrations { _FutureCore.removeResolutionCallback(registration) }
        }
    }

    /// Keeps `detachment` until this derived future is decided, or undoes it at once if it is.
    ///
    /// A resolver publishes `resolved` before it takes the links in `dropUpstreams`, under the
    /// same lock as this: either that takes the detachment, or this sees `resolved`.
    final func keep(_ detachment: Detachment) {
        let kept = withLinks { links -> Bool in
            guard !_isResolved else { return false }
            links.detachments.append(detachment)
            return true
        }
        if kept != true { detachment.detach() }
    }

    /// Cancels `futures` with `cancel` once this derived future is decided, or at once if it is:
    /// the futures a combinator made for it alone (a fold's chain), which hold its closure until
    /// their own sources resolve. Watched, not held: they may hold this future.
    @usableFromInline
    final func _cancelWhenDecided(_ futures: [_FutureCore], _ cancel: @escaping @Sendable (_FutureCore) -> Void) {
        let watched = futures.map { WatchedSource($0) }
        keep(.action { for link in watched { if let future = link.future { cancel(future) } } })
    }

    /// Runs `expire` after `duration` on a timer that this derived future keeps until it is
    /// decided, and then cancels. A duration too long to schedule starts no timer: it never
    /// expires.
    @usableFromInline
    final func keepTimer(after duration: Duration, _ expire: @escaping @Sendable () -> Void) {
        if let timer = DelayedWork.after(duration, expire) { keep(.timer(timer)) }
    }
}

/// Walks the graph above `start`, depth-first and each node once, without recursion (a chain
/// of derived futures can be 100,000 deep). Lazy derived futures met on the way are connected,
/// and marked as demanded without blocking if `withoutBlocking` (see `upstreamsForDemand`).
/// `wakeUp`, from a reader about to park, is left in each derived future met.
///
/// `stop` is asked after each future with work is visited: a reader whose own future has been
/// resolved by what it ran so far (the winner of a `first(of:)`) must not go on to run the rest.
func walkUpstream(
    from start: _FutureCore,
    withoutBlocking: Bool,
    wakeUp: ParkedReaderWakeUp? = nil,
    stop: () -> Bool = { false },
    visitRoot: (_FutureCore) -> Void
) {
    // Up a chain first, while each future met has one source: no stack and no record of the
    // futures met, which cost three arrays (a third of a lazy future's `map` read). A future
    // cannot be met twice on a chain unless its links form a cycle, which `wait(on:)` refuses
    // (two racing `wait(on:)` calls could still close one): the chain's steps are bounded, so
    // that the walk ends whatever the links are.
    var node = start
    for _ in 0..<chainWalkLimit {
        if stop() || node._isResolved { return }
        let sources = node.upstreamsForDemand(withoutBlocking: withoutBlocking, wakeUp: wakeUp)
        if let sources, !withoutBlocking, node.readersStartLazyWork {
            walkStartingLazyWork(from: sources, wakeUp: wakeUp, stop: stop, visitRoot: visitRoot)
            return
        }
        switch sources {
        case nil:
            visitRoot(node)
            return
        case .one(let source)?:
            node = source
        case .several(let sources)?:
            walkGraph(from: sources, withoutBlocking: withoutBlocking, wakeUp: wakeUp, stop: stop, visitRoot: visitRoot)
            return
        }
    }
    walkGraph(from: [node], withoutBlocking: withoutBlocking, wakeUp: wakeUp, stop: stop, visitRoot: visitRoot)
}

/// How many futures `walkUpstream` follows one by one before it walks as in a graph. (Computed:
/// a global constant is initialized once, behind a check at each use.)
private var chainWalkLimit: Int { 4_096 }

/// The rest of `walkUpstream`, where futures may have several sources: depth-first from the
/// futures of `stack`, the last first, each future once.
private func walkGraph(
    from stack: [_FutureCore],
    withoutBlocking: Bool,
    wakeUp: ParkedReaderWakeUp?,
    stop: () -> Bool,
    visitRoot: (_FutureCore) -> Void
) {
    var visited = VisitedFutures()
    var stack = stack
    while let node = stack.popLast(), !stop() {
        guard !node._isResolved, visited.insert(node) else { continue }
        let sources = node.upstreamsForDemand(withoutBlocking: withoutBlocking, wakeUp: wakeUp)
        if let sources, !withoutBlocking, node.readersStartLazyWork {
            walkStartingLazyWork(from: sources, wakeUp: wakeUp, stop: stop, visitRoot: visitRoot)
            continue
        }
        switch sources {
        case nil: visitRoot(node)
        case .one(let source)?: stack.append(source)
        case .several(let sources)?: stack.append(contentsOf: sources)
        }
    }
}

/// A blocking reader's walk on from `sources`, the sources of a future whose readers start lazy
/// work on a context (`DerivedLinks.readersStartLazyWork`, a timeout's): unstarted lazy work met
/// beyond it is started there, not run on the reader's thread, so that the reader stays free to
/// leave at the deadline; everything else is visited as the walk visits it, so that queued work
/// the reader may claim (the work of the serial queue it runs on) is still claimed.
private func walkStartingLazyWork(
    from sources: SourcesToWalk,
    wakeUp: ParkedReaderWakeUp?,
    stop: () -> Bool,
    visitRoot: (_FutureCore) -> Void
) {
    let start: [_FutureCore]
    switch sources {
    case .one(let source): start = [source]
    case .several(let several): start = several
    }
    walkGraph(from: start, withoutBlocking: false, wakeUp: wakeUp, stop: stop) { root in
        if ReadStep(root._word) == .claimAndRun {
            root.startWithoutBlocking()
        } else {
            visitRoot(root)
        }
    }
}

/// The sources a walk up the links goes on to from a derived future.
enum SourcesToWalk {
    /// One source: most derived futures.
    case one(_FutureCore)
    /// Any other number, in order.
    case several([_FutureCore])
}

/// The futures a walk up the links has met: a short list searched in order while the walk is
/// small, a set beyond. Most walks meet a handful of futures (a bounded `all` and its futures in
/// flight, at each look of its reader), and hashing each into a set cost more than the rest of
/// the walk.
struct VisitedFutures {
    private var few: [ObjectIdentifier] = []
    private var many: Set<ObjectIdentifier> = []

    /// How many futures the list holds before the walk moves them to the set.
    private static var listLimit: Int { 16 }

    /// Records `future`; whether it was not met before.
    mutating func insert(_ future: _FutureCore) -> Bool {
        let identity = ObjectIdentifier(future)
        if few.count < Self.listLimit {
            if few.contains(identity) { return false }
            few.append(identity)
            return true
        }
        if many.isEmpty { many = Set(few) }
        return many.insert(identity).inserted
    }
}
