public import Synchronization

/// A future's state as one 64-bit word: the phase, three flags, the kind, and the creation site.
///
/// ```
/// bits 0-1   phase: pending, running, completing, resolved
/// bit  2     waiters: a thread is (or was) parked on the future in the parking lot
/// bit  3     callbacks: callbacks are registered for the future in the parking lot
/// bit  4     not cancelled: set from the start, cleared when the future is resolved by
///            cancellation (so that the read path's test is one `not` and one `test`)
/// bits 5-7   kind (`FutureKind`)
/// bit  8     succeeded: set as the future is resolved with a value, in the same atomic step
///            that publishes `resolved`; then the slot holds `.success` for good
/// bits 9-31  the creation file's number in `CreationSite`'s table, for a future with links (0: none
///            or unknown; a future without links keeps its file in `FutureLinks.site`)
/// bits 32-63 the creation line
/// ```
///
/// The word lives in `_FutureCore._state`, an `Atomic<UInt64>`. Every change is one of the
/// transitions below, applied with `Atomic.transition(_:)`, a compare-and-swap loop; the
/// exceptions are the publications by an add (`publishIncrement(from:succeeded:)`).
/// Transitions are plain value code, so that each can be tested without threads (`StateWordTests`).
///
/// The phase only moves forward, and whoever moves it out of `pending` owns the future's slot
/// (`Future._slot`): the claimer runs the work it holds, a completer writes the outcome. A
/// completer that wins `beginCompletion` writes the outcome in `completing`, then publishes
/// `resolved` with a releasing add. A runner writes its outcome while still `running`, then
/// publishes with one compare-and-swap (`finishRunning`). A future with one possible completer
/// (`Future._resolveUncontended`) is written in `pending` and published from there with one add.
/// A cancellation of running work
/// resolves the future without touching the slot, which the runner still owns: the `cancelled`
/// bit alone says what the result is, and the runner that finds it drops its outcome.
@usableFromInline
struct StateWord: Equatable, Sendable {
    @usableFromInline var raw: UInt64

    @inlinable init(raw: UInt64) { self.raw = raw }

    /// A pending word for a future of `kind` with `links`, made at `fileID`:`line`.
    ///
    /// The file's number goes in the word only for a future with links: one with none keeps the
    /// file's name in its links instead (`FutureLinks.site(_:)`), and its word's number is 0.
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
    /// Set while the future is not cancelled; cleared by a cancelling completion.
    @inlinable static var notCancelledBit: UInt64 { 1 << 4 }
    @inlinable static var kindShift: UInt64 { 5 }
    @inlinable static var kindMask: UInt64 { 0b111 << kindShift }
    /// Set in a word resolved with a value: only then, and from then on, the slot holds
    /// `.success`.
    @inlinable static var succeededBit: UInt64 { 1 << 8 }
    @inlinable static var fileShift: UInt64 { 9 }

    /// The bits that are all set in a word resolved with a value: the read path's test is
    /// `~word & resolvedWithValue == 0`, one `not` and one `test` (`Future._successOnTheReadPath`).
    @inlinable static var resolvedWithValue: UInt64 { Phase.resolved.rawValue | notCancelledBit | succeededBit }

    /// Added to a word in `phase` to make it `resolved`, keeping every flag; with `succeeded`,
    /// it sets that bit too (clear until then, so the add carries nowhere).
    ///
    /// From `completing`, by the thread that won `beginCompletion`. From `pending` or `running`,
    /// only where no other thread can move the phase meanwhile: a derived future that only its
    /// step resolves (`Future._resolveUncontended`), or a runner whose future cannot be cancelled
    /// (`_FutureWithSlot._finishRunning`); both skip `completing`.
    @inlinable
    static func publishIncrement(from phase: Phase, succeeded: Bool) -> UInt64 {
        (Phase.resolved.rawValue - phase.rawValue) | (succeeded ? succeededBit : 0)
    }

    // MARK: Fields

    @usableFromInline
    enum Phase: UInt64, Sendable {
        /// Not started (work), not completed (promise), or waiting on sources (derived).
        case pending = 0
        /// A thread claimed the work and runs it.
        case running = 1
        /// One thread won the right to resolve and is writing the outcome.
        case completing = 2
        /// The outcome is readable; nothing changes any more but the flags.
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

    /// Whether the future is of `kind`: one mask and one compare.
    @inlinable
    func `is`(_ kind: FutureKind) -> Bool {
        raw & Self.kindMask == UInt64(kind.rawValue) << Self.kindShift
    }

    @inlinable var isResolved: Bool { raw & Self.phaseMask == Phase.resolved.rawValue }
    @inlinable var hasWaiters: Bool { raw & Self.waitersBit != 0 }
    @inlinable var hasCallbacks: Bool { raw & Self.callbacksBit != 0 }
    @inlinable var isCancelled: Bool { raw & Self.notCancelledBit == 0 }
    /// Whether the word was resolved with a value (see `succeededBit`).
    @inlinable var hasSucceeded: Bool { raw & Self.succeededBit != 0 }
    /// Whether a resolution from this word must take the stripe's lock: a reader is parked, or
    /// callbacks are registered.
    @inlinable var needsAnnouncement: Bool { raw & (Self.waitersBit | Self.callbacksBit) != 0 }

    var line: UInt { UInt(raw >> 32) }
    var fileNumber: UInt64 { (raw >> Self.fileShift) & 0x7F_FFFF }

    // MARK: Transitions

    /// The outcome of `claim()`.
    @usableFromInline
    enum ClaimOutcome: Equatable, Sendable {
        /// This thread moved the phase to `running`: it owns the work and must run it.
        case won
        /// Another thread runs the work, or is resolving the future.
        case taken
        /// The future is resolved.
        case resolved
    }

    /// `pending → running`, for the thread that will run the work.
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

    /// The outcome of `beginCompletion(cancelling:)`.
    @usableFromInline
    enum CompletionOutcome: Equatable, Sendable {
        /// This thread may resolve the future. `fromPending`: the work never started, so this
        /// thread owns the slot and must drop the work in it. `ownsSlot`: it writes the outcome
        /// into the slot (every completion but the cancellation of running work).
        case won(fromPending: Bool, ownsSlot: Bool)
        /// The future is resolved, or being resolved, by someone else.
        case lost
    }

    /// `pending | running → completing`, for the one thread that resolves the future. A
    /// cancelling completion also sets `cancelled`.
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

    /// What `finishRunning(succeeded:)` did.
    @usableFromInline
    enum FinishOutcome: Equatable, Sendable {
        /// The runner's outcome is published: the word before, for its flags.
        case published(previous: StateWord)
        /// A cancellation resolved the future while its work ran.
        case cancelled
    }

    /// The runner's one step from `running` to `resolved`, once it has written its outcome
    /// in the slot it owns. Only a cancellation can move a running future's phase meanwhile,
    /// and a cancellation never writes the slot, so no other thread needs a `completing` phase
    /// to keep out of it: one compare-and-swap publishes the outcome, where `beginCompletion`
    /// and `publishResolved` take two atomic operations.
    ///
    /// `succeeded`: the outcome is a value, and the word says so (`succeededBit`).
    @inlinable
    mutating func finishRunning(succeeded: Bool) -> FinishOutcome {
        guard phase == .running else { return .cancelled }
        let previous = self
        phase = .resolved
        if succeeded { raw |= Self.succeededBit }
        return .published(previous: previous)
    }

    /// The outcome of `addWaiter()` and `addCallbacks()`.
    @usableFromInline
    enum RegistrationOutcome: Equatable, Sendable {
        /// The flag is set: a resolution from now on will take the stripe's lock and see it.
        case registered
        /// The future is resolved: there is nothing to wait for.
        case resolved
    }

    /// Sets `waiters`, unless the future is resolved. Made while holding the stripe's lock.
    @inlinable
    mutating func addWaiter() -> RegistrationOutcome {
        if isResolved { return .resolved }
        raw |= Self.waitersBit
        return .registered
    }

    /// Sets `callbacks`, unless the future is resolved. Made while holding the stripe's lock.
    @inlinable
    mutating func addCallbacks() -> RegistrationOutcome {
        if isResolved { return .resolved }
        raw |= Self.callbacksBit
        return .registered
    }

    /// `completing → resolved`, as a plain value operation (the atomic form is one add of
    /// `publishIncrement(from:succeeded:)`); for tests of the sequence.
    mutating func publishResolved(succeeded: Bool = false) {
        precondition(phase == .completing, "only a completing future can be published as resolved")
        raw &+= Self.publishIncrement(from: .completing, succeeded: succeeded)
    }
}

extension Atomic where Value == UInt64 {
    /// Applies `transition` to the state word atomically: loads the word, lets `transition`
    /// change a copy, and stores it with a compare-and-swap, again from the new word if another
    /// thread changed it meanwhile. A transition that changes nothing stores nothing.
    ///
    /// Both the load and the swap acquire and release, so that a thread that wins a transition
    /// sees everything the threads before it published.
    @inlinable
    func transition<Outcome>(_ transition: (inout StateWord) -> Outcome) -> Outcome {
        self.transition(from: StateWord(raw: load(ordering: .acquiring)), transition)
    }

    /// `transition(_:)` from a word the caller loaded itself, with acquiring order, instead of
    /// loading it again. A transition that changes nothing decides from that word without
    /// storing: use it only where that outcome holds for any later word too, as `claim()`'s does
    /// (the phase only moves forward, so a word past `pending` stays past it).
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
