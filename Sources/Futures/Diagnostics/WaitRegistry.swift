/// The threads parked in a future's wait: the future each waits for and the futures whose work it
/// runs. What the cycle check follows (`WaitRegistry+Cycles.swift`) and what
/// ``FutureDiagnostics/waitingFutures()`` lists.
///
/// Only the slow path of a blocking reader comes here: `_FutureCore.park(until:)` registers the
/// thread just before it takes its stripe's lock to wait, and removes it just after it let go of
/// that lock. A resolved read, a creation, a claim and a completion never do.
///
/// Two places, so that no process-wide lock is taken on every park:
/// - `table`, under one lock, holds the threads that can be part of a wait cycle: those that run
///   a future's work and park without a deadline (a nested wait). Only they are edges of a cycle
///   (another thread waits for the work they run), so the cycle check reads only this table.
/// - `readers`, sixteen small tables each under its own lock, hold every other parked thread (a
///   top-level reader, which runs no future's work, and any timed wait), for diagnostics only.
///   Such a thread is in no cycle: nobody waits for work it runs. A cycle that forms above it is
///   found by the last of the cycle's own threads to park, or, when a `flatMap` closes it by
///   switching sources, by the parked runner that the switch wakes and that parks again.
///
/// Lock order: the table's lock, then a stripe's (the cycle check reads derived links under
/// their stripe's lock). Nothing takes the table's lock while holding a stripe's or a pool's.
///
/// A thread in the table is frozen as far as futures go until it has removed itself, which needs
/// the table's lock: it is waiting on its stripe's condition, or about to, or about to leave. So
/// while that lock is held, no such thread runs work, claims work or resolves anything; that is
/// what makes a cycle the check sees a real one (see `findCycle`).
enum WaitRegistry {
    /// One parked thread.
    struct Parked: Sendable {
        /// The future it waits for.
        let future: _FutureCore
        /// The futures whose work it runs, outermost first (a copy of its `ThreadState` chain),
        /// held while it is registered.
        let running: [_FutureCore]
        /// Whether it waits without a deadline: only such a wait is an edge of a wait cycle. A
        /// timed read, and a top-level reader that looks again at queued work every millisecond,
        /// leave on their own.
        let waitsForever: Bool
        let isMainThread: Bool
    }

    struct Table: Sendable {
        /// The threads here (running work, parked without a deadline), by their `ThreadState`: a
        /// thread parks once at a time.
        var parked: [ObjectIdentifier: Parked] = [:]
        /// For each future in the chain of a thread that waits forever, that thread.
        var runners: [ObjectIdentifier: ObjectIdentifier] = [:]
    }

    /// The threads that run work and park without a deadline: the edges of wait cycles.
    static let table = LockedBox(Table())

    /// Every other parked thread, by its `ThreadState`, spread over stripes by that identity.
    static let readers: [LockedBox<[ObjectIdentifier: Parked]>] = (0..<readerStripeCount).map { _ in
        LockedBox([:])
    }
    static let readerStripeCount = 16

    /// A thread's registration, to remove after its wait.
    struct Registration {
        fileprivate let thread: ObjectIdentifier
        /// Where it is: `nil` for the table, else the index of its stripe of `readers`.
        fileprivate let readerStripe: Int?
    }

    /// Registers this thread as parking on `future`. For a wait without a deadline by a thread
    /// that runs a future's work, first traps if the wait would close a cycle of waits: this is
    /// the last thread of the cycle to park.
    static func register(parkingOn future: _FutureCore, waitsForever: Bool, isMainThread: Bool) -> Registration {
        let state = ThreadState.current
        let thread = ObjectIdentifier(state)
        let parked = Parked(
            future: future, running: state.running.map { $0.takeUnretainedValue() }, waitsForever: waitsForever,
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

    /// Removes this thread's registration after its wait.
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

    /// The parked threads now, for a snapshot.
    static func parkedThreads() -> [Parked] {
        var parked = table.withLock { Array($0.parked.values) }
        for stripe in readers { parked += stripe.withLock { Array($0.values) } }
        return parked
    }
}
