import Synchronization

/// One worker thread of a `ThreadPool`, as the pool and its monitor see it.
///
/// Its state says whether the pool counts it as computing. Every change is a compare-and-swap,
/// made by the worker itself (a job begins or ends, a wait parks it) or by the monitor (it saw the
/// worker blocked, or computing again), and the pool's `computing` counter (`RunnerCounts`) moves
/// with exactly the changes into and out of `computing`, so the two never disagree for long.
final class WorkerRecord: Sendable {
    enum State: Int {
        /// Between jobs.
        case idle = 0
        /// Running a job, counted as computing.
        case computing = 1
        /// Running a job that the monitor saw blocked; not counted.
        case blocked = 2
        /// Running a job, parked in a future's wait; not counted.
        case parked = 3
    }

    private let state = Atomic<Int>(State.idle.rawValue)
    /// Whether the last job ended while the monitor saw it blocked. Read and written only by the
    /// worker's own thread (an atomic only so that the class is plainly `Sendable`).
    private let lastJobBlocked = Atomic<Bool>(false)
    /// Counts the jobs the worker began, so that the monitor compares looks at one job only.
    private let jobs = Atomic<UInt64>(0)
    let probe: ThreadProbe
    /// The worker's thread, for a reader that raises its priority (`PriorityBoost`).
    let thread: ThreadHandle
    /// The future whose queued work the worker runs (its `ObjectIdentifier`'s bits), or 0: what a
    /// reader that raises the priority of the work it waits for looks up (`PriorityBoost`).
    /// Written only by the worker's own thread.
    private let runningFuture = Atomic<UInt>(0)
    /// The counter this worker's state moves. Unowned and unchecked (no reference counting on
    /// every job): a worker's thread holds its pool for as long as the thread lives, and the
    /// monitor holds it while it looks at the records.
    private unowned(unsafe) let pool: ThreadPool

    init(pool: ThreadPool, probe: ThreadProbe, thread: ThreadHandle) {
        self.pool = pool
        self.probe = probe
        self.thread = thread
    }

    /// Runs `job`, recording the future it runs, if any, for `runs(_:)`.
    ///
    /// The job is consumed, and its parts are taken apart in one `switch`: a `guard case` followed
    /// by `job.run()` copied the job twice, a retain and a release of the future and of its run
    /// closure each time.
    func run(_ job: consuming Job) {
        switch consume job {
        case .future(let future, let run):
            runningFuture.store(UInt(bitPattern: ObjectIdentifier(future)), ordering: .relaxed)
            run(future)
            runningFuture.store(0, ordering: .relaxed)
        case .closure(let body):
            body()
        }
    }

    /// Whether the worker is running `future`'s queued work.
    func runs(_ future: _FutureCore) -> Bool {
        runningFuture.load(ordering: .relaxed) == UInt(bitPattern: ObjectIdentifier(future))
    }

    var currentState: State { State(rawValue: state.load(ordering: .relaxed)) ?? .idle }
    var jobNumber: UInt64 { jobs.load(ordering: .relaxed) }

    /// `idle → computing`, as the worker starts a job; `idle → blocked` if its last job blocked.
    ///
    /// Loads come in batches: a worker whose last job blocked most likely runs another that
    /// blocks, so it starts uncounted, and the pool may start the next job beside it at once
    /// instead of after the monitor has watched this one block. If the job computes instead, the
    /// monitor counts it again at its next look.
    func beginJob() {
        jobs.wrappingAdd(1, ordering: .relaxed)
        if lastJobBlocked.load(ordering: .relaxed) {
            state.store(State.blocked.rawValue, ordering: .relaxed)
        } else {
            state.store(State.computing.rawValue, ordering: .relaxed)
            pool.counts.runnerStarted()
        }
    }

    /// One job ends and the next begins: `computing` and `blocked` stay as they are, which is what
    /// `endJob()` then `beginJob()` would give, without moving the pool's `computing` counter down
    /// and up again (two changes, per job, of a counter every runner shares).
    func nextJob() {
        jobs.wrappingAdd(1, ordering: .relaxed)
        lastJobBlocked.store(currentState == .blocked, ordering: .relaxed)
    }

    /// `computing | blocked → idle`, as the worker ends a job.
    func endJob() {
        let previous = state.exchange(State.idle.rawValue, ordering: .relaxed)
        lastJobBlocked.store(previous == State.blocked.rawValue, ordering: .relaxed)
        if previous == State.computing.rawValue { pool.counts.runnerStopped() }
    }

    /// `computing | blocked → parked`, before the worker parks in a future's wait. Returns
    /// whether it was running a job (and so must `unpark()` after).
    func park() -> Bool {
        if move(from: .computing, to: .parked) {
            pool.counts.runnerStopped()
            pool.runnerSlotFreed()
            return true
        }
        return move(from: .blocked, to: .parked)
    }

    /// `parked → computing`, after the wait.
    func unpark() {
        if move(from: .parked, to: .computing) { pool.counts.runnerStarted() }
    }

    /// `computing → blocked`, by the monitor. Returns whether it moved.
    func markBlocked() -> Bool {
        guard move(from: .computing, to: .blocked) else { return false }
        pool.counts.runnerStopped()
        return true
    }

    /// `blocked → computing`, by the monitor, for a runner that computes again.
    func markComputing() {
        if move(from: .blocked, to: .computing) { pool.counts.runnerStarted() }
    }

    private func move(from old: State, to new: State) -> Bool {
        state.compareExchange(expected: old.rawValue, desired: new.rawValue, ordering: .relaxed).exchanged
    }
}
