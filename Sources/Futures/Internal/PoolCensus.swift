/// A thread pool's counts, and the decisions made from them, as plain values: the pool applies
/// them under its lock, and tests check them without threads.
struct PoolCensus: Equatable {
    /// How many runners may compute at once.
    var cpuSlots: Int
    /// How many threads the pool may have, blocked ones included.
    var maxThreads: Int
    /// Jobs queued and not started.
    var queued = 0
    /// Threads running jobs and not known to be blocked (the pool's `computing` counter).
    var computing = 0
    /// Live worker threads.
    var threads = 0
    /// Workers waiting for a wake-up.
    var idle = 0
    /// Wake-ups sent to idle workers and not yet taken.
    var wakeTokens = 0
    /// Workers spawned that have not yet looked for work.
    var starting = 0
    /// Workers watching the empty queue for a moment before they wait; 0 or 1.
    var spinning = 0

    /// Workers on their way to the queue: each will take a job if one is there and a slot is free.
    var comingRunners: Int { wakeTokens + starting + spinning }

    /// How many more runners the queue could use now: one per queued job that no coming runner
    /// will take, as long as CPU slots are free.
    var runnersWanted: Int {
        max(0, min(queued - comingRunners, cpuSlots - computing - comingRunners))
    }

    /// Whether queued work waits for a slot that only a blocked runner's detection could free:
    /// the condition for a pool's monitor to watch its runners.
    var workWaitsForASlot: Bool {
        queued > comingRunners && computing + comingRunners >= cpuSlots
    }

    /// Whether queued work could start now on a free slot, with no runner on its way to it: what
    /// a slot freed without a start leaves (the monitor then starts the runners).
    var slotWaitsForARunner: Bool { runnersWanted > 0 }

    /// The decision to start runners: wake idle workers first, then spawn threads up to the bound.
    struct Start: Equatable {
        var wake = 0
        var spawn = 0
    }

    /// Decides to start up to `limit` runners, and counts them as coming.
    mutating func startRunners(limit: Int) -> Start {
        let wanted = min(limit, runnersWanted)
        guard wanted > 0 else { return Start() }
        let wake = min(wanted, idle - wakeTokens)
        let spawn = min(wanted - wake, maxThreads - threads)
        wakeTokens += wake
        threads += spawn
        starting += spawn
        return Start(wake: wake, spawn: spawn)
    }
}

/// The monitor's look at one runner: which job it runs, its CPU and wall clocks, and how many
/// looks in a row, this one included, found it using less than a quarter of a core.
struct RunnerSample: Equatable {
    var job: UInt64
    var cpuNanoseconds: UInt64
    var wallNanoseconds: UInt64
    var idleLooks = 0

    /// What two looks at a runner say about it.
    enum Verdict: Equatable {
        /// Not enough to judge: another job, too short a time between the looks, or only one
        /// idle look so far.
        case unknown
        /// It used at least half a core: it computes.
        case computing
        /// It used less than a quarter of a core in each of the last two intervals: it may be
        /// blocked (or waiting for a core, which the monitor then asks the kernel about). Two
        /// looks, so that a runner that waits a moment for a lock is not taken for blocked.
        case mayBeBlocked
    }

    /// This look, judged against `previous` (looks at least `minimumInterval` nanoseconds apart):
    /// the verdict, and the sample to keep for the next look.
    func judged(since previous: RunnerSample, minimumInterval: UInt64) -> (Verdict, RunnerSample) {
        var next = self
        guard previous.job == job, wallNanoseconds >= previous.wallNanoseconds &+ minimumInterval else {
            return (.unknown, next)
        }
        let (cpu, wall) = elapsed(since: previous)
        if Self.isIdle(cpu: cpu, wall: wall) {
            next.idleLooks = previous.idleLooks + 1
            return (next.idleLooks >= 2 ? .mayBeBlocked : .unknown, next)
        }
        return (cpu.multipliedReportingOverflow(by: 2).partialValue >= wall ? .computing : .unknown, next)
    }

    /// Whether, since `previous`, the runner moved on to another job after at most two, and used
    /// less than a quarter of a core meanwhile: its jobs are long and mostly idle, so they may
    /// block, but each ended before a second look at it could judge it. The monitor then looks
    /// again soon instead of backing off, or jobs that block for less than its longest interval
    /// would never be seen twice. Runners of short jobs move on by many jobs between looks, and
    /// those that compute use their core: neither keeps the monitor looking often.
    func ranLongIdleJobs(since previous: RunnerSample) -> Bool {
        guard previous.job != job, job &- previous.job <= 2, wallNanoseconds > previous.wallNanoseconds else {
            return false
        }
        let (cpu, wall) = elapsed(since: previous)
        return Self.isIdle(cpu: cpu, wall: wall)
    }

    /// The CPU and wall time since `previous`, for a look taken after it (a CPU time that seems to
    /// go back counts as none).
    private func elapsed(since previous: RunnerSample) -> (cpu: UInt64, wall: UInt64) {
        let cpu = cpuNanoseconds >= previous.cpuNanoseconds ? cpuNanoseconds - previous.cpuNanoseconds : 0
        return (cpu, wallNanoseconds - previous.wallNanoseconds)
    }

    /// Whether `cpu` is less than a quarter of `wall`: less than a quarter of a core used.
    private static func isIdle(cpu: UInt64, wall: UInt64) -> Bool {
        cpu.multipliedReportingOverflow(by: 4).partialValue < wall
    }
}
