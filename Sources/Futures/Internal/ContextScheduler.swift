import Foundation
public import Synchronization

/// A piece of work handed to a context: a queued future's work, or a plain closure (a callback,
/// or `ExecutionContext.execute`).
@usableFromInline
enum Job: Sendable {
    /// Runs the future's work if it is still unclaimed. `run` is made where the future is made:
    /// in a client that knows the future's types, it is code specialized for them.
    case future(_FutureCore, run: @Sendable (_FutureCore) -> Void)
    case closure(@Sendable () -> Void)

    func run() {
        switch self {
        case .future(let future, let run): run(future)
        case .closure(let body): body()
        }
    }
}

/// The scheduling behind an ``ExecutionContext``: where its jobs run, and the two counters
/// behind the rule for when a blocking reader runs a queued background future itself.
///
/// `queued` counts the jobs handed over and not yet taken: a closure until it starts, a
/// background future until its work leaves `pending` (claimed by a runner or a reader, or dropped
/// by a completion), which `_FutureCore.leftTheQueue()` counts, in one place for every way out.
/// An entry whose future a reader claimed is then no longer counted, though it stays in the
/// context's queue until a runner takes it out and finds nothing to do. `computing` counts the threads
/// running this context's work that are not known to be blocked: a thread that parks in a
/// future's wait stops counting until it wakes (`RunnerAccounting`), and a thread pool's monitor
/// stops counting a runner it sees blocked.
///
/// The rule (docs/design.md, Claiming): a reader that is itself inside future work always claims queued work
/// it waits on, so that nested and fan-out futures finish even when every runner waits. A
/// top-level reader claims at once only if the demand, counting the work it would take, fits the
/// slots (`computing + queued <= cpuSlots`), so that it does not become a third runner on two busy
/// cores; otherwise it parks, and each time it looks again it claims if a slot is free, or once it
/// has waited `starvationLimit` on a context that cannot start more runners.
///
/// Each context has its own scheduler, so a test can make an isolated one; the global contexts'
/// are instances like any other.
@usableFromInline
class ContextScheduler: @unchecked Sendable {
    // @unchecked: the counters are atomics and `cpuSlots` is immutable; subclasses restate theirs.

    /// The cores this process may use, at least 1.
    static let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// How long a top-level reader parks before it looks at the counters again.
    static let recheckInterval: Duration = .milliseconds(1)
    /// How long a top-level reader waits for queued work before it runs it anyway, on a context
    /// that cannot start another runner.
    static let starvationLimit: Duration = .milliseconds(50)

    /// How many runners may compute at once before a reader waits instead of claiming.
    @usableFromInline final let cpuSlots: Int
    @usableFromInline final let computing = Atomic<Int>(0)
    @usableFromInline final let queued = Atomic<Int>(0)

    init(cpuSlots: Int) {
        precondition(cpuSlots > 0, "a context needs at least one CPU slot; it was given \(cpuSlots)")
        self.cpuSlots = cpuSlots
    }

    // MARK: What a context does

    /// Runs `job` on this context, once, counting it in `queued` until it starts.
    @usableFromInline
    func submit(_ job: Job) {
        preconditionFailure("ContextScheduler.submit(_:) must be overridden")
    }

    /// Runs `work` on this context, once.
    @usableFromInline
    func execute(_ work: @escaping @Sendable () -> Void) {
        preconditionFailure("ContextScheduler.execute(_:) must be overridden")
    }

    /// Called when a reader claimed `future`'s queued work to run it itself: a thread pool takes
    /// the entry back if it is the newest, so that no worker wakes or takes the lock for it.
    @usableFromInline
    func readerClaimed(_ future: _FutureCore) {}

    /// Called when a counted runner stops computing (it finished a reader's claimed work, or
    /// parked) while jobs are queued; a thread pool starts another runner.
    func runnerSlotFreed() {}

    /// Whether more runners can be started now, if the ones there are block; a pool at its
    /// thread bound cannot. Closure contexts cannot say, and answer `false`.
    var canStartMoreRunners: Bool { false }

    /// The quality of service this context's runners run at, for a reader that outranks them
    /// (`PriorityBoost`); unspecified where Futures does not make the threads.
    var runnerQoS: ThreadQoS { .unspecified }

    // MARK: The reader's rule

    /// Whether a blocking reader that just found this context's work queued should run it now.
    @inlinable
    final func readerShouldClaimAtOnce() -> Bool {
        CurrentWork.isInsideWork
            || computing.load(ordering: .relaxed) + queued.load(ordering: .relaxed) <= cpuSlots
    }

    /// Whether a blocking reader that has waited `waited` and still finds the work queued should
    /// run it now.
    final func readerShouldClaim(afterWaiting waited: Duration) -> Bool {
        CurrentWork.isInsideWork
            || computing.load(ordering: .relaxed) < cpuSlots
            || (waited >= Self.starvationLimit && !canStartMoreRunners)
    }

    // MARK: Counting runners

    /// Runs `body` counted as one of this context's computing runners, unless the thread is
    /// counted already (a runner that runs queued work inline is counted once).
    @inlinable
    final func runCounted<R>(_ body: () -> R) -> R {
        let counted = beginCountedRun()
        defer { if counted { endCountedRun() } }
        return body()
    }

    @usableFromInline
    final func beginCountedRun() -> Bool {
        let state = ThreadState.current
        guard state.countedBy == nil else { return false }
        state.countedBy = self
        computing.wrappingAdd(1, ordering: .relaxed)
        return true
    }

    /// Stops counting this thread.
    @usableFromInline
    final func endCountedRun() {
        ThreadState.current.countedBy = nil
        releaseSlot()
    }

    /// Counts one computing runner out (it ended its run, or parks); if jobs are queued, the slot
    /// it frees goes to them (`runnerSlotFreed()`). A job submitted while that runner held the
    /// last slot started no runner, and nothing else would start one: it waited for the next
    /// submit, or for ever. The common run, a future read at once after it was made, finds
    /// nothing queued and pays one load. A submit that races this check (each side may read the
    /// other's counter before its change) is covered by the pool's monitor, which that submit
    /// asked to watch.
    final func releaseSlot() {
        computing.wrappingSubtract(1, ordering: .relaxed)
        if queued.load(ordering: .relaxed) > 0 { runnerSlotFreed() }
    }
}

/// How a thread that runs a context's work is counted while it parks in a future's wait: not as
/// computing, so that its context may start other work. Pool workers go through their
/// `WorkerRecord`, which the pool's monitor also changes; other counted threads adjust their
/// context's counter directly.
struct RunnerAccounting {
    private enum Kind {
        case none
        case worker(WorkerRecord)
        case counted(ContextScheduler)
    }

    private let kind: Kind

    /// Stops counting this thread as computing, if it is, before it parks.
    static func willPark() -> RunnerAccounting {
        guard let state = ThreadState.existing else { return RunnerAccounting(kind: .none) }
        if let worker = state.worker, worker.park() {
            return RunnerAccounting(kind: .worker(worker))
        }
        if state.worker == nil, let scheduler = state.countedBy {
            scheduler.releaseSlot()
            return RunnerAccounting(kind: .counted(scheduler))
        }
        return RunnerAccounting(kind: .none)
    }

    /// Counts the thread as computing again, after it woke.
    func didUnpark() {
        switch kind {
        case .none: break
        case .worker(let worker): worker.unpark()
        case .counted(let scheduler): scheduler.computing.wrappingAdd(1, ordering: .relaxed)
        }
    }
}
