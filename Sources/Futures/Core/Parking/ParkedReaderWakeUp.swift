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

    /// A wake-up for a reader that parks on `future`.
    init(parkingOn future: _FutureCore) {
        stripe = ParkingLot.stripe(for: future)
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
}
