public import Synchronization

/// The two counters of a context that readers consult without a lock, and their only writer.
///
/// `computing` counts the threads running this context's work that are not known to be blocked: a
/// thread that parks in a future's wait stops counting until it wakes (`RunnerAccounting`), and a
/// thread pool's monitor stops counting a runner it sees blocked (`WorkerRecord`). `unclaimed`
/// counts the jobs handed to the context whose work nobody has taken yet: a closure until it
/// starts, a background future until its work leaves `pending` (claimed by a runner or a reader,
/// or dropped by a completion), which `_FutureCore._leftTheQueue()` reports, in one place for every
/// way out. An entry whose future a reader claimed is no longer unclaimed, though it may stay in a
/// pool's ring (`PoolState.queuedEntries` counts those entries) until a runner takes it out and
/// finds nothing to do.
///
/// Every change of either counter is one of the methods below; everything else only reads them.
/// Both are atomics, not fields of a pool's `PoolState`, because every blocked reader reads them
/// (the reader's rule, `ContextScheduler`) and every counted run changes `computing`: taking a
/// pool's lock for each would put one lock on every read of background work.
@usableFromInline
final class RunnerCounts: Sendable {
    /// How many runners may compute at once before a reader waits instead of claiming.
    let cpuSlots: Int
    /// Written only by `runnerStarted()` and `runnerStopped()`.
    @usableFromInline let computing = Atomic<Int>(0)
    /// Written only by `jobSubmitted()` and `jobLeftTheQueue()`.
    @usableFromInline let unclaimed = Atomic<Int>(0)

    init(cpuSlots: Int) {
        precondition(cpuSlots > 0, "a context needs at least one CPU slot; it was given \(cpuSlots)")
        self.cpuSlots = cpuSlots
    }

    /// Threads running this context's work now, not known to be blocked.
    @inlinable var computingNow: Int { computing.load(ordering: .relaxed) }
    /// Jobs handed over whose work nobody has taken yet.
    @inlinable var unclaimedNow: Int { unclaimed.load(ordering: .relaxed) }

    /// A thread starts computing this context's work (or computes again after a wait).
    func runnerStarted() {
        computing.wrappingAdd(1, ordering: .relaxed)
    }

    /// A thread stops computing this context's work (its run ended, it parks, or the monitor saw it
    /// blocked). Returns whether jobs wait unclaimed: the slot it frees may be theirs.
    @discardableResult
    func runnerStopped() -> Bool {
        computing.wrappingSubtract(1, ordering: .relaxed)
        return unclaimed.load(ordering: .relaxed) > 0
    }

    /// A job was handed to the context.
    func jobSubmitted() {
        unclaimed.wrappingAdd(1, ordering: .relaxed)
    }

    /// A job's work was taken: a closure started, or a future's work left `pending`.
    @inlinable
    func jobLeftTheQueue() {
        unclaimed.wrappingSubtract(1, ordering: .relaxed)
    }
}
