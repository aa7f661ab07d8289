import Foundation

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

    /// Whether it is a closure's job, looked at without copying the job (`if case` on an
    /// optional variable copied it: a retain and a release of what it holds).
    var isClosure: Bool {
        if case .closure = self { return true }
        return false
    }
}

/// Where a context's jobs run: the narrow interface between a context's scheduling and the
/// threads that run its work. A `ThreadPool` (Futures' own threads) and a `ClosureScheduler` (a
/// closure given by the program) conform.
protocol JobRunner: AnyObject, Sendable {
    /// The counters readers consult; the runner changes them as its jobs are handed over and
    /// start (`RunnerCounts.jobSubmitted()`, `jobLeftTheQueue()`).
    var counts: RunnerCounts { get }

    /// Runs `job` once, counting it in `counts.unclaimed` until it starts.
    func submit(_ job: consuming Job)

    /// Runs `work` once.
    func execute(_ work: @escaping @Sendable () -> Void)

    /// Called when a reader claimed `future`'s queued work to run it itself: a thread pool takes
    /// the entry back if it is the newest, so that no worker wakes or takes the lock for it.
    func readerClaimed(_ future: _FutureCore)

    /// Called when a counted runner stops computing (it finished a reader's claimed work, or
    /// parked) while jobs are unclaimed; a thread pool starts another runner.
    func runnerSlotFreed()

    /// Whether more runners can be started now, if the ones there are block; a pool at its
    /// thread bound cannot. Closure contexts cannot say, and answer `false`.
    var canStartMoreRunners: Bool { get }

    /// The quality of service the runners run at, for a reader that outranks them
    /// (`PriorityBoost`); unspecified where Futures does not make the threads.
    var runnerQoS: ThreadQoS { get }
}

/// The scheduling behind an ``ExecutionContext``: its `JobRunner`, its `RunnerCounts`, and the rule
/// built on them for when a blocking reader runs a queued background future itself.
///
/// The rule (docs/design.md, Claiming): a reader that is itself inside future work always claims
/// queued work it waits on, so that nested and fan-out futures finish even when every runner
/// waits. A top-level reader claims at once only if the demand, counting the work it would take,
/// fits the slots (`computing + unclaimed <= cpuSlots`), so that it does not become a third runner
/// on two busy cores; otherwise it parks, and each time it looks again it claims if a slot is
/// free, or once it has waited `starvationLimit` on a context that cannot start more runners.
///
/// Each context has its own scheduler, so a test can make an isolated one; the global contexts'
/// are instances like any other.
@usableFromInline
final class ContextScheduler: Sendable {
    /// The cores this process may use, at least 1.
    static let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// How long a top-level reader parks before it looks at the counters again.
    static let recheckInterval = EngineTiming.queuedWorkRecheck
    /// How long a top-level reader waits for queued work before it runs it anyway, on a context
    /// that cannot start another runner.
    static let starvationLimit = EngineTiming.starvationLimit

    /// The runner's counters, held here too so that the reader's rule reads them without a call.
    @usableFromInline let counts: RunnerCounts
    /// Where the jobs run.
    let runner: any JobRunner
    /// Whether every job submitted here runs: a pool of Futures' own threads runs its queue even
    /// as it shuts down. A context made from a closure may drop work, or never run it.
    let runsEveryJob: Bool
    init(runner: any JobRunner) {
        self.runner = runner
        counts = runner.counts
        runsEveryJob = runner is ThreadPool
    }

    // MARK: What a context does

    /// Runs `job` on this context, once, counting it as unclaimed until it starts.
    @usableFromInline
    func submit(_ job: consuming Job) {
        runner.submit(job)
    }

    /// Runs `work` on this context, once.
    @usableFromInline
    func execute(_ work: @escaping @Sendable () -> Void) {
        runner.execute(work)
    }

    /// A reader claimed `future`'s queued work to run it itself.
    @usableFromInline
    func readerClaimed(_ future: _FutureCore) {
        runner.readerClaimed(future)
    }

    /// Whether more runners can be started now, if the ones there are block.
    var canStartMoreRunners: Bool { runner.canStartMoreRunners }

    /// The quality of service this context's runners run at.
    var runnerQoS: ThreadQoS { runner.runnerQoS }

    // MARK: The reader's rule

    /// Whether a blocking reader that just found this context's work queued should run it now.
    @usableFromInline
    func readerShouldClaimAtOnce() -> Bool {
        CurrentWork.isInsideWork || counts.computingNow + counts.unclaimedNow <= counts.cpuSlots
    }

    /// Whether a blocking reader that has waited `waited` and still finds the work queued should
    /// run it now.
    func readerShouldClaim(afterWaiting waited: Duration) -> Bool {
        CurrentWork.isInsideWork
            || counts.computingNow < counts.cpuSlots
            || (waited >= Self.starvationLimit && !canStartMoreRunners)
    }

    // MARK: Counting runners

    /// Runs `body` counted as one of this context's computing runners, unless the thread is
    /// counted already (a runner that runs queued work inline is counted once): by a context it
    /// runs work of, or, on a pool's worker, by the worker's record.
    @inlinable
    func runCounted<R>(_ body: () -> R) -> R {
        let counted = beginCountedRun()
        defer { if counted { endCountedRun() } }
        return body()
    }

    @usableFromInline
    func beginCountedRun() -> Bool {
        let state = ThreadState.current
        guard state.countedBy == nil, state.worker == nil else { return false }
        state.countedBy = self
        counts.runnerStarted()
        return true
    }

    /// Stops counting this thread.
    @usableFromInline
    func endCountedRun() {
        ThreadState.current.countedBy = nil
        releaseSlot()
    }

    /// Counts one computing runner out (it ended its run, or parks); if jobs are unclaimed, the
    /// slot it frees goes to them (`runnerSlotFreed()`). A job submitted while that runner held the
    /// last slot started no runner, and nothing else would start one: it waited for the next
    /// submit, or for ever. The common run, a future read at once after it was made, finds
    /// nothing queued and pays one load. A submit that races this check (each side may read the
    /// other's counter before its change) is covered by the pool's monitor, which that submit
    /// asked to watch.
    func releaseSlot() {
        if counts.runnerStopped() { runner.runnerSlotFreed() }
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
        case .counted(let scheduler): scheduler.counts.runnerStarted()
        }
    }
}
