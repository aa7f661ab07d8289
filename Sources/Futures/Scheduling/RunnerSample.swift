/// The monitor's look at one runner; `idleLooks` counts looks in a row under a quarter of a core.
struct RunnerSample: Equatable {
    var job: UInt64
    var cpuNanoseconds: UInt64
    var wallNanoseconds: UInt64
    var idleLooks = 0

    enum Verdict: Equatable {
        /// Another job, looks too close, or one idle look only.
        case unknown
        /// At least half a core used.
        case computing
        /// Under a quarter of a core in each of the last two intervals (two, so a short lock wait
        /// is not taken for blocked); the kernel then says blocked or waiting for a core.
        case mayBeBlocked
    }

    /// The verdict against `previous`, and the sample to keep.
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

    /// Moved on by one or two jobs while mostly idle: jobs that may block but end before a second
    /// look. The monitor then keeps its short interval, or such jobs would never be seen twice.
    func ranLongIdleJobs(since previous: RunnerSample) -> Bool {
        guard previous.job != job, job &- previous.job <= 2, wallNanoseconds > previous.wallNanoseconds else {
            return false
        }
        let (cpu, wall) = elapsed(since: previous)
        return Self.isIdle(cpu: cpu, wall: wall)
    }

    /// CPU time that seems to go back counts as none.
    private func elapsed(since previous: RunnerSample) -> (cpu: UInt64, wall: UInt64) {
        let cpu = cpuNanoseconds >= previous.cpuNanoseconds ? cpuNanoseconds - previous.cpuNanoseconds : 0
        return (cpu, wallNanoseconds - previous.wallNanoseconds)
    }

    /// Under a quarter of a core.
    private static func isIdle(cpu: UInt64, wall: UInt64) -> Bool {
        cpu.multipliedReportingOverflow(by: 4).partialValue < wall
    }
}
