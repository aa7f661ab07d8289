import Synchronization

/// A context's two lock-free counters; the methods below are their only writers.
///
/// `computing`: runners not parked nor seen blocked. `unclaimed`: a closure until it starts, a
/// future until its work leaves `pending` (`_FutureCore._leftTheQueue()`). Atomics, not
/// `PoolState` fields: every blocked reader reads them, and a lock would be on every read.
final class RunnerCounts: Sendable {
    let cpuSlots: Int
    /// Written only by `runnerStarted()` and `runnerStopped()`.
    let computing = Atomic<Int>(0)
    /// Written only by `jobSubmitted()` and `jobLeftTheQueue()`.
    let unclaimed = Atomic<Int>(0)

    init(cpuSlots: Int) {
        precondition(cpuSlots > 0, "a context needs at least one CPU slot; it was given \(cpuSlots)")
        self.cpuSlots = cpuSlots
    }

    var computingNow: Int { computing.load(ordering: .relaxed) }
    var unclaimedNow: Int { unclaimed.load(ordering: .relaxed) }
    func runnerStarted() { computing.wrappingAdd(1, ordering: .relaxed) }

    /// Returns whether jobs wait unclaimed: the freed slot may be theirs.
    @discardableResult
    func runnerStopped() -> Bool {
        computing.wrappingSubtract(1, ordering: .relaxed)
        return unclaimed.load(ordering: .relaxed) > 0
    }

    func jobSubmitted() { unclaimed.wrappingAdd(1, ordering: .relaxed) }
    func jobLeftTheQueue() { unclaimed.wrappingSubtract(1, ordering: .relaxed) }
}
