import Testing

@testable import Futures

/// The monitor's verdict on a runner from two looks at it, as plain values.
struct RunnerSampleTests {
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
