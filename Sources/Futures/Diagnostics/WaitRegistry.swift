/// The threads parked in a future's wait, with the futures whose work each runs: what the cycle
/// check follows and ``FutureDiagnostics/waitingFutures()`` lists. Only a parking reader's slow
/// path comes here (`park(until:)`, around the stripe lock).
///
/// Two places, so no process-wide lock is taken on every park:
/// - `table`, one lock: threads that run a future's work and park without a deadline, the only
///   possible edges of a wait cycle; the cycle check reads only this.
/// - `readers`, sixteen striped tables: every other parked thread, for diagnostics. Nobody waits
///   for work such a thread runs; a cycle above it is found by the cycle's last thread to park (or
///   by the runner a `flatMap` source switch wakes, when it parks again).
///
/// Lock order: table, then a stripe (the check reads derived links under their stripe's lock);
/// nothing takes the table's lock holding a stripe's or a pool's.
///
/// A thread in the table is frozen, as far as futures go, until it removes itself under the
/// table's lock; so while that lock is held a cycle the check sees is real (`findCycle`).
enum WaitRegistry {
    struct Parked: Sendable {
        let future: _FutureCore
        /// The futures whose work it runs, outermost first, held while registered.
        let running: [_FutureCore]
        /// Only a wait without a deadline is a cycle edge: a timed read, and a top-level reader that
        /// rechecks queued work, leave on their own.
        let waitsForever: Bool
        let isMainThread: Bool
    }

    struct Table: Sendable {
        /// By `ThreadState` (a thread parks once at a time).
        var parked: [ObjectIdentifier: Parked] = [:]
        /// Each future in a registered thread's chain, to that thread.
        var runners: [ObjectIdentifier: ObjectIdentifier] = [:]
    }

    static let table = LockedBox(Table())

    /// Every other parked thread, striped by its `ThreadState`.
    static let readers: [LockedBox<[ObjectIdentifier: Parked]>] = (0..<readerStripeCount).map { _ in
        LockedBox([:])
    }
    static let readerStripeCount = 16

    struct Registration {
        fileprivate let thread: ObjectIdentifier
        /// `nil` for the table, else the index in `readers`.
        fileprivate let readerStripe: Int?
    }

    /// A runner's wait without a deadline first traps if it closes a cycle: this is the cycle's last
    /// thread to park.
    static func register(parkingOn future: _FutureCore, waitsForever: Bool, isMainThread: Bool) -> Registration {
        let state = ThreadState.current
        let thread = ObjectIdentifier(state)
        let parked = Parked(
            future: future, running: state.running, waitsForever: waitsForever,
            isMainThread: isMainThread)
        guard waitsForever, !parked.running.isEmpty else {
            let stripe = Int(UInt(bitPattern: thread.hashValue) % UInt(readerStripeCount))
            readers[stripe].withLock { $0[thread] = parked }
            return Registration(thread: thread, readerStripe: stripe)
        }
        let cycle = table.withLock { table -> WaitCycle? in
            if let cycle = findCycle(parking: parked, in: table) { return cycle }
            table.parked[thread] = parked
            for future in parked.running { table.runners[ObjectIdentifier(future)] = thread }
            return nil
        }
        if let cycle { misuse(cycle.message) }
        return Registration(thread: thread, readerStripe: nil)
    }

    static func unregister(_ registration: Registration) {
        let removed: Parked?
        if let stripe = registration.readerStripe {
            removed = readers[stripe].withLock { $0.removeValue(forKey: registration.thread) }
        } else {
            removed = table.withLock { table -> Parked? in
                guard let parked = table.parked.removeValue(forKey: registration.thread) else { return nil }
                for future in parked.running { table.runners.removeValue(forKey: ObjectIdentifier(future)) }
                return parked
            }
        }
        _ = removed  // released here, outside the lock
    }

    static func parkedThreads() -> [Parked] {
        var parked = table.withLock { Array($0.parked.values) }
        for stripe in readers { parked += stripe.withLock { Array($0.values) } }
        return parked
    }
}
