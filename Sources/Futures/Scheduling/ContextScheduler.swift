import Foundation

/// Work handed to a context: a queued future's work, or a closure.
enum Job: Sendable {
    /// `run` runs the work once claimed (`_claim()`); made where the future is, specialized for
    /// its types. Whoever takes the job claims first: a reader may have claimed the work already.
    case future(_FutureCore, run: @Sendable (_FutureCore) -> Void)
    case closure(@Sendable () -> Void)

    /// On a closure context's thread, counted as a runner while a future's work runs.
    func run() {
        switch self {
        case .future(let future, let run):
            guard future._claim() else { return }
            if let scheduler = future._contextScheduler {
                scheduler.runCounted { run(future) }
            } else {
                run(future)
            }
        case .closure(let body):
            body()
        }
    }

    /// Tests the case without copying the job (an `if case` on an optional copy retains the payload).
    var isClosure: Bool {
        if case .closure = self { return true }
        return false
    }
}

/// Where a context's jobs run: a `ThreadPool` or a `ClosureScheduler`.
protocol JobRunner: AnyObject, Sendable {
    /// Changed as jobs are handed over and start.
    var counts: RunnerCounts { get }

    /// Runs `job` once, counted in `counts.unclaimed` until it starts.
    func submit(_ job: consuming Job)

    func execute(_ work: @escaping @Sendable () -> Void)

    /// A reader claimed `future`'s queued work: a pool takes the entry back if it is the newest,
    /// so no worker wakes for it.
    func readerClaimed(_ future: _FutureCore)

    /// A counted runner stopped computing while jobs are unclaimed: a pool starts another.
    func runnerSlotFreed()

    /// `false` at a pool's thread bound, and for closure contexts, which cannot say.
    var canStartMoreRunners: Bool { get }

    /// For a reader that outranks the runners (`PriorityBoost`); unspecified for foreign threads.
    var runnerQoS: ThreadQoS { get }
}

/// An ``ExecutionContext``'s runner and counts, and when a blocking reader runs queued work itself
/// (docs/design.md, Claiming): inside future work always (nested futures finish when every runner
/// waits); at top level at once only if `computing + unclaimed <= cpuSlots`, else at a later look
/// with a free slot, or after `starvationLimit` on a context that cannot start more runners.
@usableFromInline
final class ContextScheduler: Sendable {
    static let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
    static let recheckInterval = EngineTiming.queuedWorkRecheck
    static let starvationLimit = EngineTiming.starvationLimit

    /// The runner's, held here so the reader's rule reads them without a call.
    let counts: RunnerCounts
    let runner: any JobRunner
    /// A pool runs its queue even as it shuts down; a closure context may drop work.
    let runsEveryJob: Bool
    init(runner: any JobRunner) {
        self.runner = runner
        counts = runner.counts
        runsEveryJob = runner is ThreadPool
    }

    // MARK: What a context does

    func submit(_ job: consuming Job) { runner.submit(job) }
    func execute(_ work: @escaping @Sendable () -> Void) { runner.execute(work) }
    func readerClaimed(_ future: _FutureCore) { runner.readerClaimed(future) }

    /// Starts a background future's work: queued, for whoever claims it first (a runner, or a
    /// reader by the rule below); `pinned`, only on this context. `run` runs the claimed work,
    /// specialized where the future was made; capture-free, so queueing allocates no closure.
    @usableFromInline
    func start(_ future: _FutureCore, pinned: Bool, run: @escaping @Sendable (_FutureCore) -> Void) {
        guard pinned else {
            submit(.future(future, run: run))
            return
        }
        execute { [self] in
            guard future._claim() else { return }
            runCounted { run(future) }
        }
    }
    var canStartMoreRunners: Bool { runner.canStartMoreRunners }
    var runnerQoS: ThreadQoS { runner.runnerQoS }

    // MARK: The reader's rule

    /// A blocking reader just found this context's work queued.
    func readerShouldClaimAtOnce() -> Bool {
        CurrentWork.isInsideWork || counts.computingNow + counts.unclaimedNow <= counts.cpuSlots
    }

    /// A blocking reader has waited `waited` and still finds the work queued.
    func readerShouldClaim(afterWaiting waited: Duration) -> Bool {
        CurrentWork.isInsideWork
            || counts.computingNow < counts.cpuSlots
            || (waited >= Self.starvationLimit && !canStartMoreRunners)
    }

    // MARK: Counting runners

    /// Runs `body` counted as a computing runner, unless the thread is counted already (by a
    /// context, or by its worker record): a runner running queued work inline counts once.
    func runCounted<R>(_ body: () -> R) -> R {
        let counted = beginCountedRun()
        defer { if counted { endCountedRun() } }
        return body()
    }

    func beginCountedRun() -> Bool {
        let state = ThreadState.current
        guard state.countedBy == nil, state.worker == nil else { return false }
        state.countedBy = self
        counts.runnerStarted()
        return true
    }

    func endCountedRun() {
        ThreadState.current.countedBy = nil
        releaseSlot()
    }

    /// Counts a runner out (run ended, or parks); if jobs are unclaimed its slot goes to them: a
    /// job submitted while this runner held the last slot started no runner, and nothing else
    /// would. A submit racing this check is covered by the monitor it asked to watch.
    func releaseSlot() {
        if counts.runnerStopped() { runner.runnerSlotFreed() }
    }
}

/// A runner parked in a future's wait stops counting as computing: a pool worker through its
/// `WorkerRecord` (which the monitor also changes), other counted threads on their context's counter.
struct RunnerAccounting {
    private enum Kind {
        case none
        case worker(WorkerRecord)
        case counted(ContextScheduler)
    }

    private let kind: Kind

    /// Before parking.
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

    /// After waking.
    func didUnpark() {
        switch kind {
        case .none: break
        case .worker(let worker): worker.unpark()
        case .counted(let scheduler): scheduler.counts.runnerStarted()
        }
    }
}
