public import Synchronization

/// The type-independent part of every future: the state word and the links. Not API.
///
/// ``Future`` adds only its slot; everything that does not touch the slot (waiting, callbacks,
/// demand, the kind's policy) is non-generic code here, one copy for all futures. `public` only
/// because ``Future``'s superclass must be; it has no public members.
public class _FutureCore: @unchecked Sendable {
    // @unchecked: `_state` is atomic, `_links` immutable; the `DerivedLinks` it may point to are
    // guarded by the future's parking-lot stripe.

    @usableFromInline let _state: Atomic<UInt64>
    /// A derived future's sources, or where it was made. Usable from inlinable code so clients
    /// know the object's layout (gated: lazy create+read, promise round trip).
    @usableFromInline let _links: FutureLinks

    @usableFromInline
    init(state: StateWord, links: FutureLinks) {
        _state = Atomic(state.raw)
        _links = links
    }

    deinit {
        let word = StateWord(raw: _state.load(ordering: .acquiring))
        if word.hasCallbacks, !word.isResolved { _discardParkedCallbacks() }
        if _links.tag < FutureLinks.siteTag { _releaseLinks() }
    }

    /// Releases what `holding(_:)` retained. Out of line so the deinit stays small enough to inline.
    @inline(never)
    private final func _releaseLinks() { _links.sources?.takeRetainedValue().releaseIteratively() }

    /// The scheduler of a background future's context; `nil` for any other future.
    var _contextScheduler: ContextScheduler? { nil }

    final var _word: StateWord { StateWord(raw: _state.load(ordering: .acquiring)) }

    @usableFromInline
    final var _kind: FutureKind { _word.kind }

    @inlinable
    final var _hasSucceeded: Bool { StateWord(raw: _state.load(ordering: .acquiring)).hasSucceeded }

    @inlinable
    final var _isResolved: Bool { StateWord(raw: _state.load(ordering: .acquiring)).isResolved }

    @usableFromInline
    final var _isCancelled: Bool { _word.isCancelled }

    // MARK: The one type-erased step

    /// Runs the work this thread claimed and resolves the future, for a caller that does not know
    /// its types. ``Future`` overrides it.
    func _runClaimedWorkErased() { preconditionFailure("\(_description) has no work to run") }

    /// The resolved future's failure as `any Error`, `nil` on success: for code that does not know
    /// the value type (a `zip`'s parameter-pack sources). A success is read from the word alone.
    final var _erasedFailureIfFailed: (any Error)? {
        _hasSucceeded ? nil : _erasedFailureOfResolved()
    }

    func _erasedFailureOfResolved() -> (any Error)? { preconditionFailure("\(_description) has no outcome to read") }

    /// Resolves a derived future that was given itself to wait for (a `flatMap` returning its own
    /// result): ``Future`` fails it with ``FutureCycleError``, or traps if its error type cannot
    /// hold that.
    func _resolveWaitingOnItself() {
        preconditionFailure("\(_description) created at \(_creationSite) was given itself to wait for")
    }

    // MARK: Claiming and publishing

    /// Moves `pending` to `running`; the winning thread owns the work and must run it.
    @inlinable
    final func _claim() -> Bool { _claim(from: StateWord(raw: _state.load(ordering: .acquiring))) }

    /// `_claim()` from a word just loaded.
    @inlinable
    final func _claim(from seen: StateWord) -> Bool {
        let word = _state.transition(from: seen) { word -> StateWord? in
            word.claim() == .won ? word : nil
        }
        guard let word else { return false }
        if word.is(.background) { _leftTheQueue() }
        return true
    }

    /// Takes a background future's work out of its context's unclaimed jobs (claimed, or dropped
    /// by a completion from `pending`): the one place it leaves the count.
    @usableFromInline
    final func _leftTheQueue() { _contextScheduler?.counts.jobLeftTheQueue() }

    /// For a blocking reader that found this background future's work queued: claims it and
    /// runs it here (`run`, specialized where the read is) if the context's rule allows
    /// (`ContextScheduler.readerShouldClaimAtOnce()`); whether it did.
    @usableFromInline
    final func _runQueuedWorkIfAllowed(from word: StateWord, _ run: () -> Void) -> Bool {
        guard let scheduler = _contextScheduler, scheduler.readerShouldClaimAtOnce(), _claim(from: word) else {
            return false
        }
        scheduler.readerClaimed(self)
        scheduler.runCounted(run)
        return true
    }

    /// Publishes `resolved` after the outcome was written in `completing`, and wakes waiters.
    /// Called once, by the thread that won `beginCompletion`. `droppingLinks`: a derived future
    /// also lets go of its sources, under the lock the announcement takes anyway.
    @inlinable
    final func _publishResolution(succeeded: Bool, droppingLinks: Bool = false) {
        // Only this thread may move the phase from `completing`: one add makes it `resolved` and
        // keeps flags others set meanwhile (an OR returning the old value would be a CAS loop).
        _publishResolution(
            adding: StateWord.publishIncrement(from: .completing, succeeded: succeeded), droppingLinks: droppingLinks)
    }

    /// The same, from any phase no other thread can move.
    @inlinable
    final func _publishResolution(adding increment: UInt64, droppingLinks: Bool) {
        let old = StateWord(raw: _state.wrappingAdd(increment, ordering: .acquiringAndReleasing).oldValue)
        if old.needsAnnouncement || droppingLinks { _afterPublishing(previous: old, droppingLinks: droppingLinks) }
    }

    // MARK: Descriptions

    final var _creationSite: String {
        let word = _word
        if let file = _links.siteFile { return CreationSite.describe(file: file, line: word.line) }
        return CreationSite.describe(number: word.fileNumber, line: word.line)
    }

    /// "BackgroundFuture<Data, any Error>"; ``Future`` overrides it with its type parameters.
    var _typeDescription: String { _kind.className }

    /// "Future<Int> (derived, lazy)".
    final var _description: String {
        guard let role = _kind.role else { return _typeDescription }
        return "\(_typeDescription) (\(role))"
    }

    /// For debugger descriptions; `completing` counts as running.
    final var _phaseName: String {
        switch _word.phase {
        case .pending: "pending"
        case .running, .completing: "running"
        case .resolved: "resolved"
        }
    }
}

/// What a future depends on: one word, the top two bits tagging the rest.
///
/// A future with no sources keeps its creation file's name here (`site`), a store instead of a
/// `CreationSite` table lookup. A hand-made tagged word, not an enum: an enum with a raw-pointer
/// payload needs a ninth byte and a pending lazy future would outgrow its 56-byte block.
@usableFromInline
struct FutureLinks: Sendable {
    /// Tag in the top two bits, address below: user-space addresses leave both clear on every
    /// 64-bit platform Swift runs on; `site(_:)` checks it.
    @usableFromInline let bits: UInt64

    @inlinable init(bits: UInt64) { self.bits = bits }

    @inlinable static var tagShift: UInt64 { 62 }
    @inlinable static var addressMask: UInt64 { (1 << 62) &- 1 }
    @inlinable static var sourcesTag: UInt64 { 0 }
    @inlinable static var siteTag: UInt64 { 2 }
    @inlinable static var noneTag: UInt64 { 3 }

    @inlinable var tag: UInt64 { bits >> Self.tagShift }

    @inlinable var address: UInt { UInt(truncatingIfNeeded: bits & Self.addressMask) }

    /// Not even a creation file; an initializer turns it into `site(_:)` when it can.
    @inlinable static var none: FutureLinks { FutureLinks(bits: noneTag << tagShift) }

    /// A derived future's sources, retained by hand (released in the deinit) and read borrowed
    /// (`_withLinksBorrowed`), so a read costs no retain/release pair.
    @inlinable
    static func holding(_ links: DerivedLinks) -> FutureLinks {
        FutureLinks(bits: UInt64(UInt(bitPattern: Unmanaged.passRetained(links).toOpaque())))
    }

    /// No links, and the creation file's name (a literal's characters live for the program).
    @inlinable
    static func site(_ fileID: StaticString) -> FutureLinks {
        guard fileID.hasPointerRepresentation else { return .none }
        let address = UInt64(UInt(bitPattern: fileID.utf8Start))
        guard address & ~addressMask == 0 else { return .none }
        return FutureLinks(bits: address | siteTag << tagShift)
    }

    @inlinable
    var sources: Unmanaged<DerivedLinks>? {
        guard tag == Self.sourcesTag else { return nil }
        return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: address).unsafelyUnwrapped)
    }

    var siteFile: UnsafePointer<CChar>? {
        guard tag == Self.siteTag else { return nil }
        return UnsafePointer(bitPattern: address)
    }

    @inlinable var isNone: Bool { tag == Self.noneTag }

    @inlinable
    func orSite(_ fileID: StaticString) -> FutureLinks { isNone ? .site(fileID) : self }
}

extension _FutureCore {
    /// Runs `body` with the links borrowed (the future holds them until its deinit); `nil` if it
    /// has none. Locks nothing.
    final func _withLinksBorrowed<R>(_ body: (DerivedLinks) -> R) -> R? {
        guard let links = _links.sources else { return nil }
        return links._withUnsafeGuaranteedRef(body)
    }
}
