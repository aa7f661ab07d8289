/// The engine's timing heuristics: none decides an outcome, and tests never depend on them.
/// Computed properties, so a hot-path read pays no lazy-global check.
enum EngineTiming {
    // MARK: Readers

    /// Looks a blocking reader takes before it parks: a few microseconds, less than a sleep and
    /// wake-up. (Not used on a single core, where the runner needs that core.)
    static var readerSpinLooks: Int { 4_000 }

    /// A top-level reader of queued work parks this long between looks (`ContextScheduler`).
    static var queuedWorkRecheck: Duration { .milliseconds(1) }

    /// Then runs it itself, on a context that cannot start another runner.
    static var starvationLimit: Duration { .milliseconds(50) }

    /// The longest single condition wait, in seconds: longer waits are made of these, so no
    /// deadline overflows the clock.
    static var longestConditionWait: Double { 86_400 }

    /// A waiter without a deadline (parked reader, idle worker, monitor) looks again this often,
    /// so a wake-up the platform loses (docs/testing.md) costs this long, never a hang.
    static var lostWakeUpRecheck: Duration { .seconds(1) }

    // MARK: Pools

    /// A worker watches an empty queue this long before it waits; zero on a single core, where
    /// watching would take the core from the submitter.
    static let workerWatchNanoseconds: UInt64 = ContextScheduler.cores > 1 ? 50_000 : 0

    static var workerPollNanoseconds: UInt64 { 200 }

    /// The monitor's shortest interval; it backs off while nothing changes.
    static var monitorInterval: Duration { .milliseconds(1) }

    /// The monitor stops this long after work last waited for a slot, not at once, so batches
    /// one after another do not wake it for each.
    static var monitorStopsAfterNanoseconds: UInt64 { 100_000_000 }

    /// An extra thread of a built-in pool exits after this long without work.
    static var builtInIdleTimeout: Duration { .seconds(2) }

    // MARK: Locks

    /// Retries of a taken `LockedBox` lock before sleeping; none on a single core.
    static let lockRetries = ContextScheduler.cores > 1 ? 100 : 0

    // MARK: Diagnostics

    /// ``FutureDiagnostics/mainThreadWaitThreshold``'s default.
    static var mainThreadWaitThreshold: Duration { .milliseconds(250) }
}
