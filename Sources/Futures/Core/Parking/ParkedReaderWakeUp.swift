import Synchronization

/// How a blocking reader parked on a derived future hears that a future above it switched
/// sources (`wait(on:)`, `replaceUpstream`), so it walks up again to the new work. Nothing
/// resolves its own future then, and if the reader is the only thread that can run the new work
/// (a serial queue reading a `map` of a `flatMap` whose inner is queued on it), it would sleep for
/// ever. So a parking reader leaves this object in each derived future its walk passes
/// (`DerivedLinks.parkedReaders`, in the same critical section that reads the sources), and a
/// switch wakes them.
///
/// No lost wake-up: the reader clears `woken` before its walk and checks it under its own stripe
/// lock, after setting its `waiters` bit, before waiting; the switcher sets `woken`, then takes
/// that lock to broadcast. A switch before the walk read the links is seen by the walk; one after
/// found this object.
final class ParkedReaderWakeUp: Sendable {
    /// The stripe the reader parks on.
    private let stripe: ParkingLot.Stripe
    private let woken = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)
    /// Whether the reader runs future work itself and so claims queued work at once
    /// (`readerShouldClaimAtOnce()`): its own serial context may have no other thread.
    let claimsAtOnce: Bool
    /// A reader that outranks a context's threads runs its queued work at once (`PriorityBoost`).
    let qos: ThreadQoS

    init(parkingOn future: _FutureCore) {
        stripe = ParkingLot.stripe(for: future)
        claimsAtOnce = CurrentWork.isInsideWork
        qos = .current
    }

    /// Before a walk: forgets a wake-up the walk will see.
    func reset() { woken.store(false, ordering: .releasing) }

    /// Whether a link above changed since the last walk; read under the reader's stripe lock.
    var isWoken: Bool { woken.load(ordering: .acquiring) }

    /// The wait is over: links holding this may drop it.
    func finish() { finished.store(true, ordering: .releasing) }

    var isFinished: Bool { finished.load(ordering: .acquiring) }

    /// Wakes the reader to walk again. Called outside any stripe lock.
    func wake() {
        woken.store(true, ordering: .releasing)
        stripe.withLock { stripe.broadcast() }
    }
}

extension DerivedLinks {
    /// Keeps `wakeUp` until the sources change, once. Under the owner's stripe lock.
    func register(_ wakeUp: ParkedReaderWakeUp) {
        if parkedReaders.contains(where: { $0 === wakeUp }) { return }
        parkedReaders.removeAll { $0.isFinished }
        parkedReaders.append(wakeUp)
    }

    /// Takes the wake-ups, to call after unlocking. Under the owner's stripe lock.
    func takeParkedReaders() -> [ParkedReaderWakeUp] {
        guard !parkedReaders.isEmpty else { return [] }
        defer { parkedReaders = [] }
        return parkedReaders
    }

    /// Takes the wake-ups of readers that would act on `call`'s source, keeping the others.
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

/// Which parked readers a derived future's new source wakes: those that would act on it
/// (`_FutureCore.demand`); the others would only park again.
enum NewSourceCall: Equatable {
    /// The source is lazy work a reader runs, or a derived future to walk through.
    case everyReader
    /// Readers that claim at once or outrank `runners`: background work queued where a runner
    /// can start; others leave it to that runner and recheck queued work anyway.
    case claimingReaders(runners: ThreadQoS)
    /// The work is running, done, or waits for its context's thread or a promise: nothing to do.
    case noReader

    /// What a reader would do on finding `source` now, read without a lock: a source that moves
    /// on meanwhile calls fewer readers.
    init(for source: _FutureCore) {
        switch ReadStep(source._word) {
        case .claimAndRun, .walkUpstream:
            self = .everyReader
        case .askContext:
            guard let scheduler = source._contextScheduler else {
                self = .everyReader
                return
            }
            // A context that cannot start a runner (serial, closure-made, pool at its bound) may
            // leave the work to a reader, which runs it after `starvationLimit`.
            self = scheduler.canStartMoreRunners ? .claimingReaders(runners: scheduler.runnerQoS) : .everyReader
        case .readOutcome, .waitForRunner, .wait:
            self = .noReader
        }
    }

    func calls(_ reader: ParkedReaderWakeUp) -> Bool {
        switch self {
        case .everyReader: true
        case .claimingReaders(let runners):
            reader.claimsAtOnce || PriorityBoost.claimsQueuedWork(waiter: reader.qos, runners: runners)
        case .noReader: false
        }
    }
}
