/// How many of a pool's CPU slots its runners may use: all of them, or one while its jobs are so
/// short that a second runner slows them down. The pool's monitor decides, by trial.
///
/// A job of a few hundred nanoseconds (a trivial background future, the next item of a bounded
/// `all`) costs a second runner more than it gains: each job it takes moves cache lines from the
/// other core (the queue's lock and ring, the job's future, the counters). On two cores, a bounded
/// `all` of trivial jobs took 590–640 ns a job on two runners against 380–490 ns on one, and up
/// to 1.9 µs on two when the host moved the machine's cores apart (BENCHMARKS.md, twenty-fifth
/// round). So, at a look of the monitor while work waits for a slot:
/// - **Trial.** When two runners or more ran only jobs shorter than `shortJobNanoseconds` on
///   average, the pool narrows to one runner. The look after the change settles it; the next one
///   judges it: one runner that takes at least as many jobs per second as the wide pool did is
///   kept (`narrow`); otherwise the pool widens at once, and the next trial waits for twice as many
///   looks as the last one did (from `firstCooldown` up to `longestCooldown`).
/// - **Widening.** A narrow pool widens as soon as a worker's job lasts from one look to the
///   next, or work waited a whole look and nobody took any (a long job on a worker, or on a
///   reader that runs it itself), or its runner's jobs are no longer short: the work queued beside
///   a long job must not wait for it. The monitor looks every `monitorInterval` while the pool is
///   narrow, so that this takes a look or two. After `retrialAfter` looks, a narrow pool widens
///   too, so that the trial is made afresh.
/// - **Reset.** When the monitor stops (nothing waited for a slot for
///   `monitorStopsAfterNanoseconds`), the pool widens: the next work starts on every slot.
///
/// The pool keeps it under its lock, and only the monitor's looks change it
/// (`ThreadPool.judgeWidth`); `PoolState.slotLimit` and `RunnerCounts.slotLimit` carry its
/// decisions to the pool and to readers.
struct PoolWidth: Equatable {
    enum Mode: Equatable {
        /// Every slot may compute.
        case wide
        /// One runner, on trial: kept if the jobs taken per nanosecond are at least `wideRate`, the
        /// wide pool's. Judged at the second look after the pool narrowed (`settled`): the first
        /// look's interval holds the change, while the runners beyond the limit end their jobs.
        case trial(wideRate: Double, settled: Bool)
        /// One runner, kept after a trial, for `looks` looks so far.
        case narrow(looks: Int)
    }

    /// What one look found, against the look before.
    struct Look: Equatable {
        /// The jobs whose work anyone took (the pool's runners, or readers that ran it themselves)
        /// between the two looks.
        var taken = 0
        /// The time between the two looks, in nanoseconds.
        var nanoseconds: UInt64 = 0
        /// The running workers seen at both looks (the others do not count below).
        var runners = 0
        /// The longest mean time per job of one of them, in nanoseconds (the whole time between
        /// its looks for a worker that began no job).
        var longestMeanJob: UInt64 = 0
        /// Whether one of them ran one job from the previous look to this one.
        var stuck = false

        /// Adds a running worker's jobs begun, and the nanoseconds, between its two looks.
        mutating func addRunner(jobs: UInt64, nanoseconds: UInt64) {
            runners += 1
            longestMeanJob = max(longestMeanJob, nanoseconds / max(jobs, 1))
            if jobs == 0 { stuck = true }
        }
    }

    /// What the pool must do after a look.
    enum Change: Equatable {
        /// Let one runner compute.
        case narrow
        /// Let every slot compute, and start the runners the queue can use.
        case widen
    }

    private(set) var mode = Mode.wide
    /// Looks to let pass before the next trial.
    private var cooldown = 0
    /// The cooldown after the next trial that loses.
    private var nextCooldown = Self.firstCooldown

    /// The mean time per job under which a runner's jobs count as short, in nanoseconds.
    static var shortJobNanoseconds: UInt64 { EngineTiming.shortJobNanoseconds }
    /// After how many looks a narrow pool is widened, so that the next look measures every slot
    /// again and the trial is made afresh: the jobs may have changed.
    static var retrialAfter: Int { 256 }
    static var firstCooldown: Int { 8 }
    static var longestCooldown: Int { 4_096 }

    var isNarrow: Bool { mode != .wide }

    /// Decides from a look taken while work waited for a slot.
    mutating func decide(_ look: Look) -> Change? {
        // Work waited and nobody took any: the one slot is held by a job that lasts (on a worker
        // seen only at this look, or on a reader that runs it itself, whom the monitor does not
        // see).
        if isNarrow, look.nanoseconds > 0, look.taken == 0 {
            mode = .wide
            return .widen
        }
        guard look.runners > 0, look.nanoseconds > 0 else { return nil }
        switch mode {
        case .wide:
            if cooldown > 0 {
                cooldown -= 1
                return nil
            }
            guard look.runners >= 2, !look.stuck, look.longestMeanJob < Self.shortJobNanoseconds else { return nil }
            mode = .trial(wideRate: Self.rate(look), settled: false)
            return .narrow
        case .trial(let wideRate, let settled):
            if !settled, !look.stuck {
                mode = .trial(wideRate: wideRate, settled: true)
                return nil
            }
            if look.stuck || Self.rate(look) < wideRate {
                mode = .wide
                cooldown = nextCooldown
                nextCooldown = min(nextCooldown * 2, Self.longestCooldown)
                return .widen
            }
            mode = .narrow(looks: 0)
            nextCooldown = Self.firstCooldown
            return nil
        case .narrow(let looks):
            guard look.stuck || look.longestMeanJob >= Self.shortJobNanoseconds || looks + 1 >= Self.retrialAfter
            else {
                mode = .narrow(looks: looks + 1)
                return nil
            }
            mode = .wide
            return .widen
        }
    }

    /// One runner, kept, as after a trial that held (tests of a narrow pool).
    mutating func keepOneRunner() {
        mode = .narrow(looks: 0)
    }

    /// The monitor stopped: the next work starts on every slot, and may be tried narrow at once.
    mutating func reset() -> Change? {
        let wasNarrow = isNarrow
        self = PoolWidth()
        return wasNarrow ? .widen : nil
    }

    private static func rate(_ look: Look) -> Double {
        Double(look.taken) / Double(look.nanoseconds)
    }
}
