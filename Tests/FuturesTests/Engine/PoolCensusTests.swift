import Testing

@testable import Futures

/// The thread pool's decisions, as plain values: how many runners to start, and when the monitor
/// must watch; and the monitor's verdict on a runner from two looks.
struct PoolCensusTests {
    static func census(cpuSlots: Int = 2, maxThreads: Int = 8) -> PoolCensus {
        PoolCensus(cpuSlots: cpuSlots, maxThreads: maxThreads)
    }

    @Test("the first job spawns one runner; a burst never spawns more runners than slots")
    func burstOfSubmits() {
        var census = Self.census()
        census.queued = 1
        #expect(census.startRunners(limit: 1) == .init(wake: 0, spawn: 1))
        census.queued = 2
        #expect(census.startRunners(limit: 1) == .init(wake: 0, spawn: 1))
        for queued in 3...100 {
            census.queued = queued
            #expect(census.startRunners(limit: 1) == .init())
        }
        #expect(census.threads == 2 && census.starting == 2)
    }

    @Test("idle workers are woken before threads are spawned, and each wake-up is counted once")
    func wakeBeforeSpawn() {
        var census = Self.census(cpuSlots: 4)
        census.threads = 2
        census.idle = 2
        census.queued = 10
        #expect(census.startRunners(limit: .max) == .init(wake: 2, spawn: 2))
        #expect(census.wakeTokens == 2 && census.starting == 2 && census.threads == 4)
        #expect(census.startRunners(limit: .max) == .init())
    }

    @Test("no runner starts while every slot computes, and the monitor is then wanted")
    func slotsFull() {
        var census = Self.census()
        census.threads = 2
        census.computing = 2
        census.queued = 5
        #expect(census.runnersWanted == 0)
        #expect(census.startRunners(limit: .max) == .init())
        #expect(census.workWaitsForASlot)
        census.queued = 0
        #expect(!census.workWaitsForASlot)
    }

    @Test("when the monitor frees slots of blocked runners, new threads start up to the bound, no further")
    func boundHolds() {
        var census = Self.census(cpuSlots: 2, maxThreads: 8)
        census.threads = 7
        census.computing = 0
        census.queued = 1_000
        #expect(census.startRunners(limit: .max) == .init(wake: 0, spawn: 1))
        #expect(census.threads == 8)
        census.starting = 0
        #expect(census.startRunners(limit: .max) == .init())
    }

    @Test("a freed slot beside queued work with no runner coming is one the monitor must fill; not when a runner comes")
    func slotWaitsForARunner() {
        var census = Self.census(cpuSlots: 1)
        census.threads = 1
        census.idle = 1
        census.queued = 1
        census.computing = 1
        // The slot is taken: work waits for it, and no runner is wanted.
        #expect(census.workWaitsForASlot && !census.slotWaitsForARunner)
        // The reader's run ends: the slot is free and nobody comes.
        census.computing = 0
        #expect(!census.workWaitsForASlot && census.slotWaitsForARunner)
        #expect(census.startRunners(limit: .max) == .init(wake: 1, spawn: 0))
        // The woken worker is on its way: nothing more to do.
        #expect(!census.slotWaitsForARunner)
    }

    @Test("a spinning worker counts as a coming runner: one job needs no other")
    func spinnerTakesTheJob() {
        var census = Self.census()
        census.threads = 1
        census.spinning = 1
        census.queued = 1
        #expect(census.startRunners(limit: .max) == .init())
        census.queued = 2
        #expect(census.startRunners(limit: .max) == .init(wake: 0, spawn: 1))
    }

    @Test("the monitor's verdict: under a quarter of a core twice is blocked, half is computing, the rest unknown")
    func verdicts() {
        let ms: UInt64 = 1_000_000
        let before = RunnerSample(job: 3, cpuNanoseconds: 10 * ms, wallNanoseconds: 100 * ms)
        func look(cpu: UInt64, wall: UInt64 = ms, job: UInt64 = 3, since previous: RunnerSample = before)
            -> (RunnerSample.Verdict, RunnerSample)
        {
            RunnerSample(
                job: job, cpuNanoseconds: previous.cpuNanoseconds + cpu,
                wallNanoseconds: previous.wallNanoseconds + wall
            )
            .judged(since: previous, minimumInterval: ms / 2)
        }
        // One idle look is not enough; a second one in a row is.
        let (first, afterFirst) = look(cpu: 0)
        #expect(first == .unknown && afterFirst.idleLooks == 1)
        let (second, afterSecond) = look(cpu: ms / 5, since: afterFirst)
        #expect(second == .mayBeBlocked && afterSecond.idleLooks == 2)
        // A look that computes in between starts the count again.
        let (busy, afterBusy) = look(cpu: ms, since: afterFirst)
        #expect(busy == .computing && afterBusy.idleLooks == 0)
        #expect(look(cpu: 0, since: afterBusy).0 == .unknown)
        #expect(look(cpu: ms / 3).0 == .unknown)
        #expect(look(cpu: ms / 2).0 == .computing)
        #expect(look(cpu: 0, job: 4, since: afterFirst).0 == .unknown)  // another job: no judgement
        #expect(look(cpu: 0, wall: ms / 4, since: afterFirst).0 == .unknown)  // looks too close together
    }

    @Test("a runner that moved on by one or two mostly idle jobs between looks keeps the monitor looking often")
    func longIdleJobs() {
        let ms: UInt64 = 1_000_000
        let before = RunnerSample(job: 10, cpuNanoseconds: 5 * ms, wallNanoseconds: 100 * ms)
        func ranLongIdleJobs(jobs: UInt64, cpu: UInt64, wall: UInt64 = 16 * ms) -> Bool {
            RunnerSample(job: 10 + jobs, cpuNanoseconds: 5 * ms + cpu, wallNanoseconds: 100 * ms + wall)
                .ranLongIdleJobs(since: before)
        }
        // Jobs that block 10 ms, seen 16 ms apart: a new job each look, hardly any CPU time.
        #expect(ranLongIdleJobs(jobs: 1, cpu: ms / 10))
        #expect(ranLongIdleJobs(jobs: 2, cpu: 3 * ms))
        // The same job: judged by `judged(since:)` instead.
        #expect(!ranLongIdleJobs(jobs: 0, cpu: 0))
        // Many short jobs between two looks: a batch of trivial work, no reason to look often.
        #expect(!ranLongIdleJobs(jobs: 300, cpu: ms))
        // Jobs that compute.
        #expect(!ranLongIdleJobs(jobs: 1, cpu: 12 * ms))
        #expect(!ranLongIdleJobs(jobs: 1, cpu: 0, wall: 0))
    }
}
