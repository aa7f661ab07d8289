/// The threads parked in a future's wait: the future each waits for and the futures whose work it
/// runs. What the cycle check follows (`WaitRegistry+Cycles.swift`) and what
/// ``FutureDiagnostics/waitingFutures()`` lists.
///
/// Only the slow path of a blocking reader comes here: `_FutureCore.park(until:)` registers the
/// thread just before it takes its stripe's lock to wait, and removes it just after it let go of
/// that lock. A resolved read, a creation, a claim and a completion never do.
///
/// Lock order: this table's lock, then a stripe's (the cycle check reads derived links under
/// their stripe's lock). Nothing takes this lock while holding a stripe's or a pool's.
///
/// A registered thread is frozen as far as futures go until it has removed itself, which needs
/// this lock: it is waiting on its stripe's condition, or about to, or about to leave. So while the
/// lock is held, no registered thread runs work, claims work or resolves anything; that is what
/// makes a cycle the check sees a real one (see `findCycle`).
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
        /// The parked threads, by their `ThreadState`: a thread parks once at a time.
        var parked: [ObjectIdentifier: Parked] = [:]
        /// For each future in the chain of a thread that waits forever, that thread.
        var runners: [ObjectIdentifier: ObjectIdentifier] = [:]
    }

    static let table = LockedBox(Table())

    /// A thread's registration, to remove after its wait.
    struct Registration {
        fileprivate let thread: ObjectIdentifier
    }

    /// Registers this thread as parking on `future`. For a wait without a deadline, first traps if
    /// the wait would close a cycle of waits: this is the last thread of the cycle to park.
    static func register(parkingOn future: _FutureCore, waitsForever: Bool, isMainThread: Bool) -> Registration {
        let state = ThreadState.current
        let thread = ObjectIdentifier(state)
        let parked = Parked(
            future: future, running: state.running.map { $0.takeUnretainedValue() }, waitsForever: waitsForever,
            isMainThread: isMainThread)
        let cycle = table.withLock { table -> WaitCycle? in
            if waitsForever, let cycle = findCycle(parking: parked, in: table) { return cycle }
            table.parked[thread] = parked
            if waitsForever {
                for future in parked.running { table.runners[ObjectIdentifier(future)] = thread }
            }
            return nil
        }
        if let cycle { misuse(cycle.message) }
        return Registration(thread: thread)
    }

    /// Removes this thread's registration after its wait.
    static func unregister(_ registration: Registration) {
        let removed = table.withLock { table -> Parked? in
            guard let parked = table.parked.removeValue(forKey: registration.thread) else { return nil }
            if parked.waitsForever {
                for future in parked.running { table.runners.removeValue(forKey: ObjectIdentifier(future)) }
            }
            return parked
        }
        _ = removed  // released here, outside the lock
    }

    /// The parked threads now, for a snapshot.
    static func parkedThreads() -> [Parked] {
        table.withLock { Array($0.parked.values) }
    }
}
