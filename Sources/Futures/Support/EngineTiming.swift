/// Every timing constant of the engine, in one place, each with why it has its value.
///
/// They are heuristics: none of them decides an outcome, only how soon a thread looks again, watches or gives up watching.
/// Tests never depend on them (they drive pools with their own configurations). The literals are
/// computed properties, not stored ones, so that reading one on a hot path costs no lazy global
/// initialization check.
enum EngineTiming {
    // MARK: Readers

    /// How many times a blocking reader looks at a pending future before it parks: a few
    /// microseconds, less than sleeping and being woken, the dearest step of a hand-off. No
    /// spinning on a single core, where the runner needs that core.
    static var readerSpinLooks: Int { 4_000 }

    /// How long a top-level reader of queued background work parks before it looks at the
    /// context's counters again (`ContextScheduler`).
    static var queuedWorkRecheck: Duration { .milliseconds(1) }

    /// How long a top-level reader waits for queued work before it runs it itself, on a context
    /// that cannot start another runner (`ContextScheduler`).
    static var starvationLimit: Duration { .milliseconds(50) }

    /// The longest single wait on a stripe's condition, in seconds: a longer wait (a timeout of
    /// `.seconds(Int64.max)`) is made of day-long ones, so that no deadline overflows the clock's
    /// time (it was `NSCondition`'s trap on a date beyond `Int.max` seconds after 1970).
    static var longestConditionWait: Double { 86_400 }

    /// How long a thread that waits with no deadline of its own (a parked reader, an idle pool
    /// worker, the pool's monitor) sleeps before it looks at what it waits for again. A wake-up
    /// the platform loses (a condition-variable signal or a futex wake that reaches no waiter:
    /// docs/testing.md, "Queued work not taken by idle workers") then costs at most this long,
    /// never a hang; a look costs a few microseconds a second per waiting thread.
    static var lostWakeUpRecheck: Duration { .seconds(1) }

    // MARK: Pools

    /// How long a pool's worker watches an empty queue before it waits, in nanoseconds; zero on a
    /// single core, where watching would only take the core from the submitter.
    static let workerWatchNanoseconds: UInt64 = ContextScheduler.cores > 1 ? 50_000 : 0

    /// How often a watching worker looks at the queue, in nanoseconds.
    static var workerPollNanoseconds: UInt64 { 200 }

    /// How often a pool's monitor looks for blocked runners while work waits for a slot (its
    /// shortest interval; it backs off while nothing changes).
    static var monitorInterval: Duration { .milliseconds(1) }

    /// How long the monitor goes on looking, at its longest interval, after work last waited for
    /// a slot, before it stops, in nanoseconds: a program that hands the pool batches of work one
    /// after another would otherwise wake it (a system call and a thread switch) for each batch.
    static var monitorStopsAfterNanoseconds: UInt64 { 100_000_000 }

    /// How long an extra thread of the built-in pools waits for work before it exits.
    static var builtInIdleTimeout: Duration { .seconds(2) }

    // MARK: Locks

    /// How many more times `LockedBox` tries a lock it found taken before it sleeps on it; none on
    /// a single core, where the holder cannot run meanwhile.
    static let lockRetries = ContextScheduler.cores > 1 ? 100 : 0

    // MARK: Diagnostics

    /// A debug build reports a blocking read on the main thread that has waited this long
    /// (``FutureDiagnostics/mainThreadWaitThreshold``'s default).
    static var mainThreadWaitThreshold: Duration { .milliseconds(250) }
}
