import Testing

@testable import Futures

/// The monitor's trial of one runner for short jobs (`PoolWidth`), look by look, without threads.
struct PoolWidthTests {
    typealias Look = PoolWidth.Look

    /// A look of a millisecond at `runners` running workers that each began `jobsEach` jobs,
    /// while anyone took `taken` jobs.
    static func look(runners: Int, jobsEach: UInt64, taken: Int) -> Look {
        var look = Look(taken: taken, nanoseconds: 1_000_000)
        for _ in 0..<runners { look.addRunner(jobs: jobsEach, nanoseconds: 1_000_000) }
        return look
    }

    /// Two runners of jobs of 1 µs, taking 2,000 jobs a millisecond between them.
    static let shortOnTwo = look(runners: 2, jobsEach: 1_000, taken: 2_000)

    /// A pool narrowed by a trial that held, with 2,000 jobs a millisecond on two runners.
    static func narrowed() -> PoolWidth {
        var width = PoolWidth()
        #expect(width.decide(shortOnTwo) == .narrow)
        #expect(width.decide(look(runners: 1, jobsEach: 2_000, taken: 2_000)) == nil)
        #expect(width.decide(look(runners: 1, jobsEach: 2_000, taken: 2_000)) == nil)
        #expect(width.mode == .narrow(looks: 0))
        return width
    }

    @Test("short jobs on two runners are tried on one, which is kept if it takes as many jobs")
    func aTrialThatHolds() {
        var width = PoolWidth()
        #expect(width.decide(Self.shortOnTwo) == .narrow)
        #expect(width.mode == .trial(wideRate: 0.002, settled: false))
        // The first look after the change only settles it, however few jobs it saw.
        #expect(width.decide(Self.look(runners: 1, jobsEach: 100, taken: 100)) == nil)
        #expect(width.mode == .trial(wideRate: 0.002, settled: true))
        // As many jobs as two runners took.
        #expect(width.decide(Self.look(runners: 1, jobsEach: 2_000, taken: 2_000)) == nil)
        #expect(width.mode == .narrow(looks: 0))
        #expect(width.decide(Self.look(runners: 1, jobsEach: 1_900, taken: 1_900)) == nil)
        #expect(width.mode == .narrow(looks: 1))
    }

    @Test("a trial that loses widens at once, and each loss doubles the looks before the next trial")
    func lostTrialsWaitLonger() {
        var width = PoolWidth()
        var cooldown = PoolWidth.firstCooldown
        for _ in 0..<3 {
            #expect(width.decide(Self.shortOnTwo) == .narrow)
            #expect(width.decide(Self.look(runners: 1, jobsEach: 1_000, taken: 1_000)) == nil)
            // 1,999 where two runners took 2,000.
            #expect(width.decide(Self.look(runners: 1, jobsEach: 1_999, taken: 1_999)) == .widen)
            #expect(width.mode == .wide)
            for _ in 0..<cooldown { #expect(width.decide(Self.shortOnTwo) == nil) }
            cooldown *= 2
        }
        // A trial that holds makes the next loss wait the first cooldown again.
        #expect(width.decide(Self.shortOnTwo) == .narrow)
        #expect(width.decide(Self.shortOnTwo) == nil)
        #expect(width.decide(Self.shortOnTwo) == nil)
        #expect(width.mode == .narrow(looks: 0))
        // A job that lasts a whole look widens it, which is no lost trial.
        #expect(width.decide(Self.look(runners: 1, jobsEach: 0, taken: 0)) == .widen)
        #expect(width.decide(Self.shortOnTwo) == .narrow)
        #expect(width.decide(Self.shortOnTwo) == nil)
        #expect(width.decide(Self.look(runners: 1, jobsEach: 1_000, taken: 1_000)) == .widen)
        for _ in 0..<PoolWidth.firstCooldown { #expect(width.decide(Self.shortOnTwo) == nil) }
        #expect(width.decide(Self.shortOnTwo) == .narrow)
    }

    @Test("a trial widens at once if its runner's job lasts from one look to the next, settled or not")
    func aStuckTrialWidens() {
        for settled in [false, true] {
            var width = PoolWidth()
            #expect(width.decide(Self.shortOnTwo) == .narrow)
            if settled { #expect(width.decide(Self.shortOnTwo) == nil) }
            #expect(width.decide(Self.look(runners: 1, jobsEach: 0, taken: 5_000)) == .widen)
            #expect(width.mode == .wide)
        }
    }

    @Test("a narrow pool widens when a job lasts from one look to the next, or its jobs grow long")
    func aNarrowPoolWidensForLongJobs() {
        var stuck = Self.narrowed()
        #expect(stuck.decide(Self.look(runners: 1, jobsEach: 0, taken: 0)) == .widen)
        #expect(stuck.mode == .wide)
        var grown = Self.narrowed()
        // 100 jobs in a millisecond: 10 µs each, no longer short.
        #expect(grown.decide(Self.look(runners: 1, jobsEach: 100, taken: 100)) == .widen)
        #expect(grown.mode == .wide)
        // Neither is a lost trial: the next short jobs are tried at once.
        #expect(grown.decide(Self.shortOnTwo) == .narrow)
    }

    @Test("a narrow pool is widened after retrialAfter looks, and tried afresh")
    func aNarrowPoolIsTriedAgain() {
        var width = Self.narrowed()
        let steady = Self.look(runners: 1, jobsEach: 2_000, taken: 2_000)
        for looks in 1..<PoolWidth.retrialAfter {
            #expect(width.decide(steady) == nil)
            #expect(width.mode == .narrow(looks: looks))
        }
        #expect(width.decide(steady) == .widen)
        #expect(width.decide(Self.shortOnTwo) == .narrow)
    }

    @Test("long jobs, one runner, a runner on one job, or a look without runners or time are not tried")
    func whatIsNotTried() {
        var width = PoolWidth()
        // 100 jobs each in a millisecond: 10 µs a job.
        #expect(width.decide(Self.look(runners: 2, jobsEach: 100, taken: 200)) == nil)
        #expect(width.decide(Self.look(runners: 1, jobsEach: 2_000, taken: 2_000)) == nil)
        var oneStuck = Self.look(runners: 1, jobsEach: 2_000, taken: 2_000)
        oneStuck.addRunner(jobs: 0, nanoseconds: 1_000_000)
        #expect(oneStuck.stuck)
        #expect(width.decide(oneStuck) == nil)
        #expect(width.decide(Look()) == nil)
        #expect(width.decide(Self.look(runners: 2, jobsEach: 1_000, taken: 0).with(nanoseconds: 0)) == nil)
        #expect(width.mode == .wide)
        // Nothing above was a trial: short jobs on two runners are tried at once.
        #expect(width.decide(Self.shortOnTwo) == .narrow)
    }

    @Test("the monitor's stop widens a narrow pool and forgets lost trials")
    func resetWidens() {
        var narrow = Self.narrowed()
        #expect(narrow.reset() == .widen)
        #expect(narrow == PoolWidth())
        var wide = PoolWidth()
        #expect(wide.decide(Self.shortOnTwo) == .narrow)
        #expect(wide.decide(Self.shortOnTwo) == nil)
        #expect(wide.decide(Self.look(runners: 1, jobsEach: 1_000, taken: 1_000)) == .widen)
        #expect(wide.reset() == nil)
        #expect(wide.decide(Self.shortOnTwo) == .narrow)
    }
}

extension PoolWidth.Look {
    /// This look with another time between the looks.
    func with(nanoseconds: UInt64) -> Self {
        var look = self
        look.nanoseconds = nanoseconds
        return look
    }
}

extension PoolWidthTests {
    @Test("a narrow pool, on trial or kept, widens when work waited a whole look and nobody took any")
    func aNarrowPoolThatTakesNothingWidens() {
        var kept = Self.narrowed()
        // No runner seen at both looks: the slot is held by a reader that runs a job itself.
        #expect(kept.decide(Look(taken: 0, nanoseconds: 1_000_000)) == .widen)
        #expect(kept.mode == .wide)
        var trial = PoolWidth()
        #expect(trial.decide(Self.shortOnTwo) == .narrow)
        #expect(trial.decide(Look(taken: 0, nanoseconds: 1_000_000)) == .widen)
        // A wide pool that took nothing has nothing to widen.
        #expect(trial.decide(Look(taken: 0, nanoseconds: 1_000_000)) == nil)
        #expect(trial.mode == .wide)
    }
}
