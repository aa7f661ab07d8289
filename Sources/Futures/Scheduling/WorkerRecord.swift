import Synchronization

/// A pool worker as the pool and its monitor see it. `state` changes by compare-and-swap (by the
/// worker or the monitor), and `RunnerCounts.computing` moves with exactly the changes into and
/// out of `.computing`.
final class WorkerRecord: Sendable {
    enum State: Int {
        case idle = 0
        /// Counted as computing.
        case computing = 1
        /// Seen blocked by the monitor; not counted.
        case blocked = 2
        /// Parked in a future's wait; not counted.
        case parked = 3
    }

    private let state = Atomic<Int>(State.idle.rawValue)
    /// Worker's own thread only (atomic so the class is plainly `Sendable`).
    private let lastJobBlocked = Atomic<Bool>(false)
    /// So the monitor compares looks at one job only.
    private let jobs = Atomic<UInt64>(0)
    let probe: ThreadProbe
    /// For `PriorityBoost`.
    let thread: ThreadHandle
    /// The running future's `ObjectIdentifier` bits, or 0, for `PriorityBoost`; written by the
    /// worker's own thread only.
    private let runningFuture = Atomic<UInt>(0)
    /// `unowned(unsafe)`, no refcounting per job: the worker's thread holds its pool while it
    /// lives, and the monitor while it looks at the records.
    private unowned(unsafe) let pool: ThreadPool

    init(pool: ThreadPool, probe: ThreadProbe, thread: ThreadHandle) {
        self.pool = pool
        self.probe = probe
        self.thread = thread
    }

    /// Consumed and taken apart in one `switch`, so the payload is not copied (retained) twice.
    func run(_ job: consuming Job) {
        switch consume job {
        case .future(let future, let run):
            // A worker is counted by its record: no `runCounted`.
            guard future._claim() else { return }
            runningFuture.store(UInt(bitPattern: ObjectIdentifier(future)), ordering: .relaxed)
            run(future)
            runningFuture.store(0, ordering: .relaxed)
        case .closure(let body):
            body()
        }
    }

    func runs(_ future: _FutureCore) -> Bool {
        runningFuture.load(ordering: .relaxed) == UInt(bitPattern: ObjectIdentifier(future))
    }

    var currentState: State { State(rawValue: state.load(ordering: .relaxed)) ?? .idle }
    var jobNumber: UInt64 { jobs.load(ordering: .relaxed) }

    /// `idle → computing`, or `idle → blocked` if its last job blocked: blocking loads come in
    /// batches, so the next job may start beside it at once; the monitor recounts one that computes.
    func beginJob() {
        jobs.wrappingAdd(1, ordering: .relaxed)
        if lastJobBlocked.load(ordering: .relaxed) {
            state.store(State.blocked.rawValue, ordering: .relaxed)
        } else {
            state.store(State.computing.rawValue, ordering: .relaxed)
            pool.counts.runnerStarted()
        }
    }

    /// `endJob()` then `beginJob()`, without moving the shared `computing` counter down and up.
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

    /// `computing | blocked → parked`; returns whether to `unpark()` after.
    func park() -> Bool {
        if move(from: .computing, to: .parked) {
            pool.counts.runnerStopped()
            pool.runnerSlotFreed()
            return true
        }
        return move(from: .blocked, to: .parked)
    }

    /// `parked → computing`.
    func unpark() {
        if move(from: .parked, to: .computing) { pool.counts.runnerStarted() }
    }

    /// `computing → blocked`, by the monitor.
    func markBlocked() -> Bool {
        guard move(from: .computing, to: .blocked) else { return false }
        pool.counts.runnerStopped()
        return true
    }

    /// `blocked → computing`, by the monitor.
    func markComputing() {
        if move(from: .blocked, to: .computing) { pool.counts.runnerStarted() }
    }

    private func move(from old: State, to new: State) -> Bool {
        state.compareExchange(expected: old.rawValue, desired: new.rawValue, ordering: .relaxed).exchanged
    }
}
