public import Synchronization

/// A future's state as one 64-bit word: the phase, three flags, the kind, and the creation site.
///
/// ```
/// bits 0-1   phase: pending, running, completing, resolved
/// bit  2     waiters: a thread is (or was) parked on the future in the parking lot
/// bit  3     callbacks: callbacks are registered for the future in the parking lot
/// bit  4     not cancelled: cleared by a cancelling completion (the read path tests one mask)
/// bits 5-7   kind (`FutureKind`)
/// bit  8     succeeded: set in the atomic step that publishes `resolved` with a value
/// bits 9-31  the creation file's number in `CreationSite` (futures with links; else 0)
/// bits 32-63 the creation line
/// ```
///
/// Every change is a compare-and-swap transition (`Atomic.transition(_:)`), except publication by
/// an add (`publishIncrement(from:succeeded:)`); transitions are plain value code, tested without
/// threads (`StateWordTests`).
///
/// The phase only moves forward; whoever moves it out of `pending` owns `Future._slot`. A completer
/// that wins `beginCompletion` writes the outcome in `completing`, then publishes with a releasing
/// add. A runner writes while still `running` and publishes with one CAS (`finishRunning`). A future
/// with one possible completer is written in `pending` and published with one add. Cancelling
/// running work never touches the slot (the runner still owns it): the `cancelled` bit alone is the
/// result, and the runner that finds it drops its outcome.
@usableFromInline
struct StateWord: Equatable, Sendable {
    @usableFromInline var raw: UInt64

    @inlinable init(raw: UInt64) { self.raw = raw }

    /// A pending word. The file's number goes in only for a future with links; one without keeps
    /// the file's name in `FutureLinks.site(_:)`.
    @inlinable
    static func initial(kind: FutureKind, links: FutureLinks, fileID: StaticString, line: UInt) -> StateWord {
        StateWord(
            raw: UInt64(truncatingIfNeeded: min(line, UInt(UInt32.max))) << 32
                | (links.isNone ? 0 : CreationSite.number(of: fileID) << Self.fileShift)
                | UInt64(kind.rawValue) << Self.kindShift
                | Self.notCancelledBit)
    }

    // MARK: Layout

    @inlinable static var phaseMask: UInt64 { 0b11 }
    @inlinable static var waitersBit: UInt64 { 1 << 2 }
    @inlinable static var callbacksBit: UInt64 { 1 << 3 }
    @inlinable static var notCancelledBit: UInt64 { 1 << 4 }
    @inlinable static var kindShift: UInt64 { 5 }
    @inlinable static var kindMask: UInt64 { 0b111 << kindShift }
    /// Set only in a word resolved with a value; from then on the slot holds `.success`.
    @inlinable static var succeededBit: UInt64 { 1 << 8 }
    @inlinable static var fileShift: UInt64 { 9 }

    /// All set in a word resolved with a value: the read path tests `~word & resolvedWithValue == 0`.
    @inlinable static var resolvedWithValue: UInt64 { Phase.resolved.rawValue | notCancelledBit | succeededBit }

    /// Added to a word in `phase` to make it `resolved`, keeping the flags (and setting `succeeded`,
    /// clear until then, so the add carries nowhere). From `completing` by the `beginCompletion`
    /// winner; from `pending`/`running` only where no other thread can move the phase
    /// (`_resolveUncontended`, an uncancellable runner's `_finishRunning`).
    @inlinable
    static func publishIncrement(from phase: Phase, succeeded: Bool) -> UInt64 {
        (Phase.resolved.rawValue - phase.rawValue) | (succeeded ? succeededBit : 0)
    }

    // MARK: Fields

    @usableFromInline
    enum Phase: UInt64, Sendable {
        case pending = 0
        case running = 1
        /// One thread won the right to resolve and is writing the outcome.
        case completing = 2
        /// Readable; only the flags change from now on.
        case resolved = 3
    }

    @inlinable
    var phase: Phase {
        get {
            switch raw & Self.phaseMask {
            case 0: .pending
            case 1: .running
            case 2: .completing
            default: .resolved
            }
        }
        set { raw = raw & ~Self.phaseMask | newValue.rawValue }
    }

    @inlinable
    var kind: FutureKind {
        FutureKind(rawValue: UInt8(truncatingIfNeeded: (raw & Self.kindMask) >> Self.kindShift)) ?? .promise
    }

    @inlinable
    func `is`(_ kind: FutureKind) -> Bool {
        raw & Self.kindMask == UInt64(kind.rawValue) << Self.kindShift
    }

    @inlinable var isResolved: Bool { raw & Self.phaseMask == Phase.resolved.rawValue }
    @inlinable var hasWaiters: Bool { raw & Self.waitersBit != 0 }
    @inlinable var hasCallbacks: Bool { raw & Self.callbacksBit != 0 }
    @inlinable var isCancelled: Bool { raw & Self.notCancelledBit == 0 }
    @inlinable var hasSucceeded: Bool { raw & Self.succeededBit != 0 }
    /// A resolution must take the stripe's lock: a reader is parked, or callbacks are registered.
    @inlinable var needsAnnouncement: Bool { raw & (Self.waitersBit | Self.callbacksBit) != 0 }

    var line: UInt { UInt(raw >> 32) }
    var fileNumber: UInt64 { (raw >> Self.fileShift) & 0x7F_FFFF }

    // MARK: Transitions

    @usableFromInline
    enum ClaimOutcome: Equatable, Sendable {
        /// This thread owns the work and must run it.
        case won
        case taken
        case resolved
    }

    @inlinable
    mutating func claim() -> ClaimOutcome {
        switch phase {
        case .pending:
            phase = .running
            return .won
        case .running, .completing:
            return .taken
        case .resolved:
            return .resolved
        }
    }

    @usableFromInline
    enum CompletionOutcome: Equatable, Sendable {
        /// `fromPending`: this thread owns the slot and must drop the unstarted work. `ownsSlot`: it
        /// writes the outcome (all but a cancellation of running work).
        case won(fromPending: Bool, ownsSlot: Bool)
        case lost
    }

    /// `pending | running → completing`; a cancelling completion also clears `notCancelled`.
    @inlinable
    mutating func beginCompletion(cancelling: Bool) -> CompletionOutcome {
        let from = phase
        switch from {
        case .pending, .running:
            phase = .completing
            if cancelling { raw &= ~Self.notCancelledBit }
            return .won(fromPending: from == .pending, ownsSlot: from == .pending || !cancelling)
        case .completing, .resolved:
            return .lost
        }
    }

    @usableFromInline
    enum FinishOutcome: Equatable, Sendable {
        /// The word before, for its flags.
        case published(previous: StateWord)
        case cancelled
    }

    /// `running → resolved` after the runner wrote the slot it owns. Only a cancellation can move a
    /// running phase meanwhile, and it never writes the slot, so one CAS publishes: no `completing`.
    @inlinable
    mutating func finishRunning(succeeded: Bool) -> FinishOutcome {
        guard phase == .running else { return .cancelled }
        let previous = self
        phase = .resolved
        if succeeded { raw |= Self.succeededBit }
        return .published(previous: previous)
    }

    enum RegistrationOutcome: Equatable, Sendable {
        /// A resolution from now on takes the stripe's lock and sees the flag.
        case registered
        case resolved
    }

    /// Under the stripe's lock.
    mutating func addWaiter() -> RegistrationOutcome {
        if isResolved { return .resolved }
        raw |= Self.waitersBit
        return .registered
    }

    /// Under the stripe's lock.
    mutating func addCallbacks() -> RegistrationOutcome {
        if isResolved { return .resolved }
        raw |= Self.callbacksBit
        return .registered
    }

    /// `completing → resolved` as a value operation, for tests.
    mutating func publishResolved(succeeded: Bool = false) {
        precondition(phase == .completing, "only a completing future can be published as resolved")
        raw &+= Self.publishIncrement(from: .completing, succeeded: succeeded)
    }
}

extension Atomic where Value == UInt64 {
    /// A CAS loop applying `transition` to a copy; one that changes nothing stores nothing. Both the
    /// load and the swap acquire and release, so a winner sees everything published before it.
    @inlinable
    func transition<Outcome>(_ transition: (inout StateWord) -> Outcome) -> Outcome {
        self.transition(from: StateWord(raw: load(ordering: .acquiring)), transition)
    }

    /// From a word the caller loaded (acquiring). A no-change outcome is decided from that word, so
    /// use it only where the outcome holds for any later word too (as `claim()`'s: the phase only
    /// moves forward).
    @inlinable
    func transition<Outcome>(from seen: StateWord, _ transition: (inout StateWord) -> Outcome) -> Outcome {
        var current = seen.raw
        while true {
            var word = StateWord(raw: current)
            let outcome = transition(&word)
            if word.raw == current { return outcome }
            let (exchanged, original) = compareExchange(
                expected: current, desired: word.raw, ordering: .acquiringAndReleasing)
            if exchanged { return outcome }
            current = original
        }
    }
}
