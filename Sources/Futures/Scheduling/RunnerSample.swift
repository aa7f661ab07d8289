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
