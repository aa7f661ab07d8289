import Synchronization

/// How a blocking reader parked on a derived future hears that a derived future above it changed
/// the sources it waits on, so that it walks up again and finds work it can now run.
///
/// A reader of a derived future parks on that future's stripe, but the futures with work are
/// found by walking up its links, and a link above can change while it sleeps: a `flatMap` whose
/// source resolves switches to the inner future its transform made (`wait(on:)`), a bounded `all`
/// to the futures it makes next (`replaceUpstream`). Nothing resolves the reader's own future
/// then, so nothing woke it: it slept until the new work ran. When nothing else will run it, that
/// is for ever — work on a serial queue that reads `map` of a `flatMap` whose inner background
/// future, on the same queue, is made after the reader parked (the queue's one thread is the
/// reader). A reader that parks therefore leaves this object in each derived future its walk
/// passes (`DerivedLinks.parkedReaders`, under that future's stripe lock, in the same critical
/// section that reads the sources), and the future that switches sources wakes every reader it
/// holds.
///
/// No lost wake-up: the reader clears `woken` before its walk, and after setting its `waiters`
/// bit under its own stripe's lock it looks at `woken` before it waits, without letting go of
/// that lock. The switcher sets `woken`, then takes the reader's stripe lock to broadcast. A switch
/// that came before the reader's walk read the links is seen by the walk; one that came after
/// found this object in the links, so either the reader sees `woken` or the broadcast comes after
/// its wait began.
final class ParkedReaderWakeUp: Sendable {
    /// The stripe the reader parks on.
    private let stripe: ParkingLot.Stripe
    private let woken = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)
    /// Whether the reader runs future work itself, and so claims queued work at once
    /// (`ContextScheduler.readerShouldClaimAtOnce()`): work queued on its own serial context may
    /// have no other thread to run it.
    let claimsAtOnce: Bool
    /// The reader's QoS: a reader that outranks a context's threads runs its queued work at once
    /// (`PriorityBoost`).
    let qos: ThreadQoS

    /// A wake-up for a reader that parks on `future`, made on the reader's thread.
    init(parkingOn future: _FutureCore) {
        stripe = ParkingLot.stripe(for: future)
        claimsAtOnce = CurrentWork.isInsideWork
        qos = .current
    }

    /// Before a walk: forgets a wake-up that the walk will take into account.
    func reset() {
        woken.store(false, ordering: .releasing)
    }

    /// Whether a link above changed since the reader's last walk. Read under the reader's stripe
    /// lock, before it waits.
    var isWoken: Bool { woken.load(ordering: .acquiring) }

    /// The reader's wait is over: links that still hold this object may drop it.
    func finish() {
        finished.store(true, ordering: .releasing)
    }

    var isFinished: Bool { finished.load(ordering: .acquiring) }

    /// Wakes the reader so that it walks up again. Called outside any stripe's lock.
    func wake() {
        woken.store(true, ordering: .releasing)
        stripe.withLock { stripe.broadcast() }
    }
}

extension DerivedLinks {
    /// Keeps `wakeUp` until the sources change, once (a reader walks up at each look). Called
    /// under the owner's stripe lock.
    func register(_ wakeUp: ParkedReaderWakeUp) {
        if parkedReaders.contains(where: { $0 === wakeUp }) { return }
        parkedReaders.removeAll { $0.isFinished }
        parkedReaders.append(wakeUp)
    }

    /// Takes the parked readers' wake-ups, to call after letting go of the stripe's lock. Called
    /// under the owner's stripe lock, where the sources change.
    func takeParkedReaders() -> [ParkedReaderWakeUp] {
        guard !parkedReaders.isEmpty else { return [] }
        defer { parkedReaders = [] }
        return parkedReaders
    }

    /// Takes the wake-ups of the parked readers that would act on `call`'s new source, and keeps
    /// the others for a later change. Called under the owner's stripe lock.
    func takeParkedReaders(calledBy call: NewSourceCall) -> [ParkedReaderWakeUp] {
        guard !parkedReaders.isEmpty else { return [] }
        switch call {
        case .everyReader: return takeParkedReaders()
        case .noReader: return []
        case .claimingReaders: break
        }
        var called: [ParkedReaderWakeUp] = []
        parkedReaders.removeAll { reader in
            guard !reader.isFinished else { return true }
            guard call.calls(reader) else { return false }
            called.append(reader)
            return true
        }
        return called
    }
}

/// Which parked readers a new source of a derived future calls back to walk up again: those that
/// would do something about it (`_FutureCore.demand`). Waking the others costs a wake-up and a
/// walk each, and they park again: per job, for a bounded `all` read from the main thread.
enum NewSourceCall: Equatable {
    /// Every reader: the source is lazy work that a reader runs, or a derived future whose own
    /// sources the reader must walk to.
    case everyReader
    /// Readers that claim queued work at once, and readers that outrank `runners`: the source is
    /// background work queued on a context that can start a runner for it. Any other reader would
    /// leave it to that runner, and looks again anyway when it rechecks queued work.
    case claimingReaders(runners: ThreadQoS)
    /// No reader: the source's work is running or done, or waits for its own context's thread or
    /// for a promise. A reader finds nothing to do about it and parks again; the source's
    /// resolution reaches the derived future through its callback.
    case noReader

    /// What a reader parked below a derived future would do on finding `source` among its roots
    /// now. Read from the source's state word, and its context's counts, without a lock: a source
    /// that moves on meanwhile moves to a step that calls fewer readers.
    init(for source: _FutureCore) {
        switch ReadStep(source._word) {
        case .claimAndRun, .walkUpstream:
            self = .everyReader
        case .askContext:
            guard let scheduler = source._contextScheduler else {
                self = .everyReader
                return
            }
            // A context that cannot start a runner (a serial one, one made from a closure, a pool at
            // its bound) may leave the work to a reader: every reader looks, and, if the work stays
            // queued, runs it after `ContextScheduler.starvationLimit`.
            self = scheduler.canStartMoreRunners ? .claimingReaders(runners: scheduler.runnerQoS) : .everyReader
        case .readOutcome, .waitForRunner, .wait:
            self = .noReader
        }
    }

    /// Whether `reader` walks up again for the new source.
    func calls(_ reader: ParkedReaderWakeUp) -> Bool {
        switch self {
        case .everyReader: true
        case .claimingReaders(let runners):
            reader.claimsAtOnce || PriorityBoost.claimsQueuedWork(waiter: reader.qos, runners: runners)
        case .noReader: false
        }
    }
}
