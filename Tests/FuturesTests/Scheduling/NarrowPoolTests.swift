import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Futures

/// A pool narrowed to one runner, as its monitor narrows it for short jobs (`PoolWidth`): how
/// many jobs it runs at once, what readers do beside it, and how its monitor widens it again for
/// a job that holds the one runner.
struct NarrowPoolTests {
    @Test("a narrow pool of two slots runs one job at a time, and every job", .hangGuard(minutes: 5))
    func oneJobAtATime() {
        // No monitor: nothing widens the pool while the jobs run.
        let pool = IsolatedPool(cpuSlots: 2, maxThreads: 4, detectsBlocking: false)
        pool.pool.keepOneRunner()
        #expect(pool.pool.slotLimit == 1)
        let running = PeakGauge()
        let finished = DispatchSemaphore(value: 0)
        let sum = Atomic<Int>(0)
        // Jobs of 20 µs: two runners would overlap on most of them.
        let futures = (0..<1_000).map { index in
            BackgroundFuture(on: pool.context) {
                running.enter()
                spin(for: .microseconds(20))
                sum.wrappingAdd(index, ordering: .relaxed)
                running.leave()
                finished.signal()
            }
        }
        // Waited for without reading them: a reader may run a queued job itself.
        for _ in futures { #expect(finished.wait(timeout: .now() + 60) == .success) }
        #expect(running.peak == 1)
        #expect(sum.load(ordering: .relaxed) == (0..<1_000).reduce(0, +))
    }

    @Test(
        "a narrow pool's monitor widens it when a job holds its one runner, and the job queued behind runs",
        .hangGuard(minutes: 5))
    func aJobThatHoldsTheRunnerWidensThePool() {
        let pool = IsolatedPool(cpuSlots: 2, maxThreads: 4)
        pool.pool.keepOneRunner()
        let started = DispatchSemaphore(value: 0)
        let behindRan = Flag()
        // Computes, never blocks, until the job queued behind it runs: only a second runner can
        // run that one, and only a wider pool starts one (the monitor frees the slot of a runner
        // that blocks, not of one that computes).
        let first = BackgroundFuture(on: pool.context) { () -> Bool in
            started.signal()
            let deadline = ContinuousClock.now + .seconds(60)
            while !behindRan.isSet, ContinuousClock.now < deadline {}
            return behindRan.isSet
        }
        #expect(started.wait(timeout: .now() + 60) == .success)
        let behind = BackgroundFuture(on: pool.context) { behindRan.set() }
        #expect(first.value)
        behind.value
        #expect(pool.pool.slotLimit == 2)
    }

    @Test("a blocked reader runs queued work itself only while fewer runners than the limit compute")
    func readersCountTheLimit() {
        let pool = IsolatedPool(cpuSlots: 2, maxThreads: 4, detectsBlocking: false)
        let scheduler = pool.context._scheduler.takeUnretainedValue()
        // One runner computes, and one job waits unclaimed.
        scheduler.counts.runnerStarted()
        scheduler.counts.jobSubmitted()
        defer {
            scheduler.counts.jobLeftTheQueue()
            scheduler.counts.runnerStopped()
        }
        #expect(scheduler.readerShouldClaim(afterWaiting: .zero))
        #expect(scheduler.readerShouldClaimAtOnce())
        pool.pool.keepOneRunner()
        #expect(!scheduler.readerShouldClaim(afterWaiting: .zero))
        #expect(!scheduler.readerShouldClaimAtOnce())
    }
}

/// A flag set once, read from any thread.
private final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}
