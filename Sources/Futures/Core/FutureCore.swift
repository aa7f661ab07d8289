public import Synchronization

/// The part of every future that does not depend on its value's type: the state word and the
/// links to what the future depends on. Not API.
///
/// ``Future`` adds only its slot (the work, then the outcome). Everything that does not touch the
/// slot — waiting, parking, callbacks, demand flowing up to the sources, the kind's policy — is
/// written here, once, as plain non-generic code: no metadata lookups on slow paths, and one copy
/// of the code for all futures.
///
/// It is `public` only because a public class (``Future``) must have a public superclass; it has
/// no public members and cannot be made or subclassed outside this module.
public class _FutureCore: @unchecked Sendable {
    // @unchecked: `_state` is atomic and `_links` is immutable; the `DerivedLinks` it may point to
    // are guarded by the future's parking-lot stripe (see `ParkingLot`).

    /// Phase, flags, kind and creation site; see `StateWord`.
    @usableFromInline let _state: Atomic<UInt64>
    /// What the future depends on: a derived future's sources, or where it was made.
    /// `@usableFromInline` though no inlinable code reads it: a client knows the object's layout
    /// only if every stored property is visible (gated: lazy create+read, promise round trip).
    @usableFromInline let _links: FutureLinks

    @usableFromInline
    init(state: StateWord, links: FutureLinks) {
        _state = Atomic(state.raw)
        _links = links
    }

    deinit {
        let word = StateWord(raw: _state.load(ordering: .acquiring))
        if word.hasCallbacks, !word.isResolved { _discardParkedCallbacks() }
        // A future with no links (`site`, `none`) passes the one test.
        if _links.tag < FutureLinks.siteTag { _releaseLinks() }
    }

    /// Releases the links that `holding(_:)` retained when the future was made. Out of line, so
    /// that the deinit is small enough to be inlined into the subclasses': the future with no
    /// links pays one test.
    @inline(never)
    private final func _releaseLinks() {
        _links.sources?.takeRetainedValue().releaseIteratively()
    }

    /// The scheduler of a background future's context; `nil` for any other future.
    @usableFromInline var _contextScheduler: ContextScheduler? { nil }

    /// The state word, read now.
    final var _word: StateWord { StateWord(raw: _state.load(ordering: .acquiring)) }

    /// The kind of future this is.
    @usableFromInline
    final var _kind: FutureKind { _word.kind }

    /// Whether the future has resolved with a value (the word's `succeeded` bit).
    @inlinable
    final var _hasSucceeded: Bool { StateWord(raw: _state.load(ordering: .acquiring)).hasSucceeded }

    /// Whether the future is resolved; never blocks and never starts work.
    @inlinable
    final var _isResolved: Bool { StateWord(raw: _state.load(ordering: .acquiring)).isResolved }

    /// Whether the future was resolved by cancellation, its own or a source's.
    @usableFromInline
    final var _isCancelled: Bool { _word.isCancelled }

    // MARK: The one type-erased step

    /// Runs the work this thread claimed, on this thread, and resolves the future with its
    /// outcome: what a reader or a queue does with the work of a future whose types it does not
    /// know. ``Future`` overrides it with its typed run.
    func _runClaimedWorkErased() {
        preconditionFailure("\(_description) has no work to run")
    }

    /// The failure of this future, which has resolved, as `any Error`; `nil` if it succeeded: for
    /// code that does not know its value type (a `zip`'s sources, whose value types are a
    /// parameter pack, which Swift 6.3 does not specialize element by element). A success is read
    /// from the word alone; a failure or a cancellation from ``Future``'s override.
    @usableFromInline
    final var _erasedFailureIfFailed: (any Error)? {
        _hasSucceeded ? nil : _erasedFailureOfResolved()
    }

    /// The failure of this resolved future, as `any Error`, if it failed: ``Future`` overrides it.
    func _erasedFailureOfResolved() -> (any Error)? {
        preconditionFailure("\(_description) has no outcome to read")
    }

    /// Resolves this derived future, which was given itself to wait for (the closure of a
    /// `flatMap` returned the future the `flatMap` makes, or one derived from it): ``Future``
    /// overrides it to fail with ``FutureCycleError``, or to trap when its error type cannot hold
    /// that error. See `wait(on:)`.
    func _resolveWaitingOnItself() {
        preconditionFailure("\(_description) created at \(_creationSite) was given itself to wait for")
    }

    // MARK: Claiming and publishing

    /// Moves the phase from `pending` to `running`, if nobody else did. The thread that wins
    /// owns the work from then on and must run it.
    @inlinable
    final func _claim() -> Bool {
        _claim(from: StateWord(raw: _state.load(ordering: .acquiring)))
    }

    /// `_claim()` for a caller that has just loaded the word (`seen`): the compare-and-swap
    /// starts from it instead of loading the word again. Always inlined, which keeps the read
    /// path's loop tight where its slow path is inlined beside it (gated: resolved read).
    @inlinable @inline(__always)
    final func _claim(from seen: StateWord) -> Bool {
        let word = _state.transition(from: seen) { word -> StateWord? in
            word.claim() == .won ? word : nil
        }
        guard let word else { return false }
        if word.is(.background) { _leftTheQueue() }
        return true
    }

    /// Counts a background future's work out of its context's unclaimed jobs: it was claimed, or
    /// dropped by a completion from `pending`. The one place where a future's work leaves the count.
    @inlinable
    final func _leftTheQueue() {
        _contextScheduler?.counts.jobLeftTheQueue()
    }

    /// Publishes `resolved` after the outcome was written in `completing`, and wakes whoever
    /// waits. Only the thread that won `beginCompletion` calls it, once.
    ///
    /// `succeeded`: the slot holds a value, and the word says so (`StateWord.succeededBit`).
    /// `droppingLinks`, for a derived future: its links let go of its sources too, under the lock
    /// the announcement takes anyway (`dropUpstreams`, without a lock of its own).
    @inlinable
    final func _publishResolution(succeeded: Bool, droppingLinks: Bool = false) {
        // The phase is `completing` and only this thread may move it: one add makes it `resolved`
        // and keeps the flags that others may set meanwhile (an OR that returns the old value
        // would be a compare-and-swap loop).
        _publishResolution(
            adding: StateWord.publishIncrement(from: .completing, succeeded: succeeded), droppingLinks: droppingLinks)
    }

    /// `_publishResolution(succeeded:droppingLinks:)` with the add to make: from `completing`
    /// or from `pending` or `running` where no other thread can move the phase
    /// (`StateWord.publishIncrement(from:succeeded:)`).
    @inlinable
    final func _publishResolution(adding increment: UInt64, droppingLinks: Bool) {
        let old = _state.wrappingAdd(increment, ordering: .acquiringAndReleasing).oldValue
        if StateWord(raw: old).needsAnnouncement {
            if droppingLinks {
                _announceResolutionDroppingLinks(previous: StateWord(raw: old))
            } else {
                _announceResolution(previous: StateWord(raw: old))
            }
        } else if droppingLinks {
            dropUpstreams()
        }
    }

    // MARK: Descriptions

    /// "Sources/App/Loader.swift:42", for messages.
    final var _creationSite: String {
        let word = _word
        if let file = _links.siteFile { return CreationSite.describe(file: file, line: word.line) }
        return CreationSite.describe(number: word.fileNumber, line: word.line)
    }

    /// "LazyFuture<Int>" or "BackgroundFuture<Data, any Error>", for messages; ``Future``
    /// overrides it with its type parameters.
    var _typeDescription: String { _kind.className }

    /// The type, with how the future resolves when its class does not say:
    /// "Future<Int> (derived, lazy)".
    final var _description: String {
        guard let role = _kind.role else { return _typeDescription }
        return "\(_typeDescription) (\(role))"
    }

    /// "pending", "running" or "resolved", for debugger descriptions. Never blocks and never
    /// starts work; a future being completed counts as running.
    final var _phaseName: String {
        switch _word.phase {
        case .pending: "pending"
        case .running, .completing: "running"
        case .resolved: "resolved"
        }
    }
}

/// What a future depends on, kept in its core: one word, whose top two bits say what the rest is.
///
/// A future that depends on nothing (a lazy future, a promise's future, a pinned future, a
/// resolved one) keeps its creation file's name here instead (`site`): its creation costs a
/// store, where the creation site's table (`CreationSite`) costs a hash and a lookup. A future
/// with links keeps its file's number in its state word, as before.
///
/// A hand-made tagged word rather than an enum: an enum with a raw pointer among its payloads
/// would need a ninth byte, and a pending lazy future would outgrow its 56-byte block.
@usableFromInline
struct FutureLinks: Sendable {
    /// The tag in the top two bits, an address in the rest. A user-space address leaves both
    /// bits clear on every 64-bit platform Swift runs on (47 to 52 significant bits); `site(_:)`
    /// checks it, and the object links are Swift objects, whose addresses are such.
    @usableFromInline let bits: UInt64

    @inlinable init(bits: UInt64) { self.bits = bits }

    @inlinable static var tagShift: UInt64 { 62 }
    @inlinable static var addressMask: UInt64 { (1 << 62) &- 1 }
    @inlinable static var sourcesTag: UInt64 { 0 }
    @inlinable static var siteTag: UInt64 { 2 }
    @inlinable static var noneTag: UInt64 { 3 }

    @inlinable var tag: UInt64 { bits >> Self.tagShift }

    @inlinable var address: UInt { UInt(truncatingIfNeeded: bits & Self.addressMask) }

    /// Nothing, not even a creation file: what a future with no links is made with (its
    /// initializer turns it into `site(_:)`, `orSite(_:)`), and what it keeps if its `fileID` has
    /// no pointer.
    @inlinable static var none: FutureLinks { FutureLinks(bits: noneTag << tagShift) }

    /// The links of a derived future: `links`, retained until the future's deinit.
    @inlinable
    static func holding(_ links: DerivedLinks) -> FutureLinks {
        .sources(.passRetained(links))
    }

    /// A derived future's sources and the way to connect to them. Retained by hand, as
    /// `context` is (`holding(_:)` when the future is made, released in its deinit), and read
    /// borrowed (`_withLinksBorrowed`): a payload bound by a pattern is a copy, a retain and a
    /// release around each use, and a link of a chain of `map`s was read three times per step
    /// (its callback's registration, its resolution, its deinit).
    @inlinable
    static func sources(_ links: Unmanaged<DerivedLinks>) -> FutureLinks {
        FutureLinks(bits: UInt64(UInt(bitPattern: links.toOpaque())))
    }

    /// No links, and the name of the file the future was made in: `fileID`'s characters, which
    /// a string literal keeps for the life of the program.
    @inlinable
    static func site(_ fileID: StaticString) -> FutureLinks {
        guard fileID.hasPointerRepresentation else { return .none }
        let address = UInt64(UInt(bitPattern: fileID.utf8Start))
        guard address & ~addressMask == 0 else { return .none }
        return FutureLinks(bits: address | siteTag << tagShift)
    }

    /// The derived future's links, if these are they.
    @inlinable
    var sources: Unmanaged<DerivedLinks>? {
        guard tag == Self.sourcesTag else { return nil }
        return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: address).unsafelyUnwrapped)
    }

    /// The creation file's name, for a future with no links that knows it.
    var siteFile: UnsafePointer<CChar>? {
        guard tag == Self.siteTag else { return nil }
        return UnsafePointer(bitPattern: address)
    }

    /// Whether these are `none`: the links of a future made with none, before `site(_:)`.
    @inlinable var isNone: Bool { tag == Self.noneTag }

    /// These links, or the creation file's name (`site(_:)`) in place of `none`.
    @inlinable
    func orSite(_ fileID: StaticString) -> FutureLinks {
        isNone ? .site(fileID) : self
    }
}

extension _FutureCore {
    /// Runs `body` with this derived future's links, borrowed: no retain and no release, since the
    /// future holds them until its deinit. `nil` for a future that has none. Locks nothing: the
    /// fields of the links are guarded as `DerivedLinks` says.
    final func _withLinksBorrowed<R>(_ body: (DerivedLinks) -> R) -> R? {
        guard let links = _links.sources else { return nil }
        return links._withUnsafeGuaranteedRef(body)
    }
}
