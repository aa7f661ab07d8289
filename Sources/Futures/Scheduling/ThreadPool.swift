import Foundation
import Synchronization

/// A pool of Futures' own threads behind a context: one runner per CPU slot for work that
/// computes, more for work that blocks, up to a bound; idle extra threads retire.
///
/// Jobs wait in a first-in first-out ring. A worker takes a job only while fewer than `cpuSlots`
/// runners compute (`computing`), so CPU-bound work keeps one runner per core. A runner stops
/// counting as computing when it blocks: at once when it parks in a future's wait
/// (`RunnerAccounting`), and, for any other wait (a file read, a socket, a lock, a `sleep`), when
/// the monitor sees it (`ThreadPool+Monitor.swift`). Its slot then goes to the next job, on an
/// idle worker or on a new thread while there are fewer than `maxThreads`.
///
/// The rules, all decided under `lock` by `PoolState`, whose transitions return what this pool
/// then does (wake workers, spawn threads, start or wake the monitor):
/// - Starting a runner means waking an idle worker (a wake-up token it must take) or spawning a
///   thread. Runners on their way (woken, spawned, or spinning) count as coming, so a burst of
///   submits never starts more runners than jobs or slots.
/// - A submit starts at most one runner; a worker that takes a job starts up to two more if jobs
///   and slots remain, so runners multiply without the submitter paying for them.
/// - A worker that finds the queue empty watches it for `spinNanoseconds` before it waits, when no
///   other worker watches already: a program that makes background futures one after another then
///   hands them over without waking a sleeping thread for each.
/// - An idle worker beyond `keptThreads` exits after `idleTimeout` without work.
final class ThreadPool: JobRunner, @unchecked Sendable {
    // @unchecked: `jobs`, `state`, `workers` and `idleWaiters` are read and written only
    // while `lock` is held;
    // `monitorWakeUps` only while `monitorCondition` is held; the rest is immutable or atomic.

    struct Configuration: Sendable {
        /// Names the worker threads, for debuggers and `/proc/self/task/*/comm` (Linux keeps 15
        /// bytes of it). The monitor's thread is `futures.monitor`.
        var label: String
        /// How many runners compute at once.
        var cpuSlots: Int
        /// The most threads the pool has, blocked ones included.
        var maxThreads: Int
        /// Threads kept when idle; the others exit after `idleTimeout`.
        var keptThreads: Int
        var idleTimeout: Duration
        /// Whether a monitor watches for blocked runners (a pool whose slots equal its bound has
        /// nothing to gain from it).
        var detectsBlocking: Bool
        /// How often the monitor looks while work waits for a slot.
        var monitorInterval = EngineTiming.monitorInterval
        /// The threads' quality of service, where the platform has one.
        var qualityOfService: QualityOfService = .default
    }

    let configuration: Configuration
    /// The counters readers consult without the lock: `computing`, which workers change as they
    /// begin, end, park and block, and `unclaimed`.
    let counts: RunnerCounts

    let lock = PoolLock()
    // The fields below are guarded by `lock`, so their run-time exclusivity checks are off
    // (gated: background hand-off).
    @exclusivity(unchecked) var jobs = JobRing()
    /// Every other count of the pool, and the decisions made from them.
    @exclusivity(unchecked) var state: PoolState
    @exclusivity(unchecked) var workers: [WorkerRecord] = []
    /// The idle workers that no wake-up token was sent to, most recently idle last: the ones a
    /// decision to wake (`PoolState.Actions.wake`) chooses from, as many as
    /// `state.idleWithoutToken`.
    @exclusivity(unchecked) var idleWaiters: [IdleWaiter] = []
    /// How many of the next wake-ups send their token without the signal, as a lost signal would
    /// (tests of the recheck, `LostWakeUps`); read and written under `lock`.
    @exclusivity(unchecked) private var signalsToDrop = 0

    /// How many jobs were ever submitted: written under `lock`, read without it by a watching
    /// worker, on a cache line of its own.
    let submits = PaddedCounter()
    /// The threads alive, mirrored from `state.threads` for readers that look without the lock.
    let threadCount = Atomic<Int>(0)
    /// The most threads alive at once, for tests and benchmarks.
    private let threadPeak = Atomic<Int>(0)
    /// How many times the monitor found a computing runner blocked and freed its slot, for tests
    /// and benchmarks: each may let the pool start one more thread.
    let blockedVerdicts = Atomic<Int>(0)

    let monitorCondition = NSCondition()
    @exclusivity(unchecked) var monitorWakeUps = 0

    /// How long a worker watches an empty queue before it waits; zero on a single core, where
    /// watching would only take the core from the submitter.
    static let spinNanoseconds = EngineTiming.workerWatchNanoseconds
    /// The stack of each worker: nested reads run queued work inline, one frame on another.
    static let stackSize = 8 << 20

    init(_ configuration: Configuration) {
        precondition(
            configuration.maxThreads >= configuration.cpuSlots,
            "a thread pool's bound (\(configuration.maxThreads)) must be at least its CPU slots "
                + "(\(configuration.cpuSlots))")
        self.configuration = configuration
        counts = RunnerCounts(cpuSlots: configuration.cpuSlots)
        state = PoolState(
            cpuSlots: configuration.cpuSlots, maxThreads: configuration.maxThreads,
            keptThreads: configuration.keptThreads, detectsBlocking: configuration.detectsBlocking,
            watchesWhenIdle: Self.spinNanoseconds > 0)
        let address = ObjectIdentifier(self)
        let entry = WeakPool(self)
        Self.live.withLock { pools in pools[address] = entry }
    }

    deinit {
        let address = ObjectIdentifier(self)
        Self.live.withLock { pools in _ = pools.removeValue(forKey: address) }
    }

    /// Every pool alive, weakly, for ``FutureDiagnostics/waitingFutures()``; a pool removes
    /// itself in `deinit`.
    private static let live = LockedBox<[ObjectIdentifier: WeakPool]>([:])

    /// Calls `body` with each pool alive.
    static func forEachLivePool(_ body: (ThreadPool) -> Void) {
        for entry in live.withLock({ Array($0.values) }) {
            if let pool = entry.pool { body(pool) }
        }
    }

    /// The futures whose work waits in this pool's queue and has not been claimed, oldest first.
    func queuedFutures() -> [_FutureCore] {
        lock.lock()
        defer { lock.unlock() }
        var futures: [_FutureCore] = []
        jobs.forEach { job in
            if case .future(let future, _) = job, future._word.phase == .pending { futures.append(future) }
        }
        return futures
    }

    /// Live threads, and the most there have been at once.
    var threads: (now: Int, peak: Int) {
        (threadCount.load(ordering: .relaxed), threadPeak.load(ordering: .relaxed))
    }

    var canStartMoreRunners: Bool {
        threadCount.load(ordering: .relaxed) < configuration.maxThreads
    }

    var runnerQoS: ThreadQoS { ThreadQoS(configuration.qualityOfService) }

    /// Calls `body`, under the pool's lock, with the thread of the worker running `future`'s
    /// queued work, if one does: a worker leaves `workers` under the lock before its thread ends,
    /// so the thread lives while `body` runs. `nil` if no worker runs it.
    func withRunnerThread<R>(of future: _FutureCore, _ body: (ThreadHandle) -> R) -> R? {
        lock.lock()
        defer { lock.unlock() }
        guard let worker = workers.first(where: { $0.runs(future) }) else { return nil }
        return body(worker.thread)
    }

    // MARK: Submitting

    func submit(_ job: consuming Job) {
        counts.jobSubmitted()
        lock.lock()
        jobs.push(job)
        submits.store(submits.load() &+ 1)
        let actions = state.jobSubmitted(queuedEntries: jobs.count, computing: counts.computingNow)
        applyUnderLock(actions)
        lock.unlock()
        apply(actions)
    }

    func execute(_ work: @escaping @Sendable () -> Void) {
        submit(.closure(work))
    }

    func readerClaimed(_ future: _FutureCore) {
        lock.lock()
        let entry = jobs.removeNewest(ifFutureIs: future)
        lock.unlock()
        _ = entry  // released here, after the lock
    }

    func runnerSlotFreed() {
        lock.lock()
        let actions = state.slotFreed(queuedEntries: jobs.count, computing: counts.computingNow)
        applyUnderLock(actions)
        lock.unlock()
        apply(actions)
    }

    /// Stops the pool once its queued work has run: its workers and its monitor exit.
    func shutDown() {
        lock.lock()
        state.shutDown()
        wakeEveryIdleWorker()
        lock.unlock()
        wakeMonitor()
    }

    // MARK: Carrying out the state's decisions

    /// The part of `actions` done under `lock`: wake-ups, each a token sent to the most recently
    /// idle worker, and the mirror of the thread count.
    func applyUnderLock(_ actions: PoolState.Actions) {
        assert(idleWaiters.count == state.idleWithoutToken + actions.wake, "idle waiters and PoolState disagree")
        for _ in 0..<actions.wake {
            // `PoolState` wakes no more workers than are idle without a token.
            let waiter = idleWaiters.removeLast()
            waiter.hasToken = true
            waiter.tokenSentAt = monotonicNanoseconds()
            if signalsToDrop > 0 {
                signalsToDrop -= 1
            } else {
                waiter.wakeUp.signal()
            }
        }
        if actions.spawn > 0 {
            threadCount.store(state.threads, ordering: .relaxed)
            recordPeak(state.threads)
        }
    }

    /// The part of `actions` done after `lock`: new threads, and the monitor.
    func apply(_ actions: PoolState.Actions) {
        for _ in 0..<actions.spawn { spawnWorker() }
        switch actions.monitor {
        case .nothing: break
        case .start: startMonitorThread()
        case .wake: wakeMonitor()
        }
    }

    /// Wakes every idle worker without a token, after a shutdown: each then runs what is left or
    /// exits. Called with `lock` held.
    func wakeEveryIdleWorker() {
        for waiter in idleWaiters { waiter.wakeUp.signal() }
    }

    private func recordPeak(_ count: Int) {
        var seen = threadPeak.load(ordering: .relaxed)
        while count > seen {
            let (exchanged, original) = threadPeak.compareExchange(expected: seen, desired: count, ordering: .relaxed)
            if exchanged { break }
            seen = original
        }
    }

    /// How many idle workers wait without a wake-up token (tests).
    var idleWorkersWithoutToken: Int {
        lock.lock()
        defer { lock.unlock() }
        return idleWaiters.count
    }

    /// Makes the next `count` wake-ups send their token without signalling the worker, as a
    /// platform that loses signals would: for tests that the worker still finds it
    /// (`LostWakeUps`).
    func dropSignals(_ count: Int) {
        lock.lock()
        signalsToDrop += count
        lock.unlock()
    }

    /// The pool's counts and its workers' states, for messages and debugging.
    var stateDescription: String {
        lock.lock()
        defer { lock.unlock() }
        let states = workers.map { "\($0.currentState)" }.joined(separator: ",")
        return "\(configuration.label): queued \(jobs.count), computing \(counts.computingNow), "
            + "unclaimed \(counts.unclaimedNow), \(state), workers [\(states)]"
    }

    // MARK: For the monitor

    /// What the monitor looks at: the workers running a job, and the state's answer to its look
    /// (`PoolState.monitorLooks`).
    func lookForMonitor(mayStop: Bool) -> (running: [WorkerRecord], look: PoolState.MonitorLook) {
        lock.lock()
        defer { lock.unlock() }
        let look = state.monitorLooks(queuedEntries: jobs.count, computing: counts.computingNow, mayStop: mayStop)
        return (workers.filter { $0.currentState != .idle }, look)
    }

    /// Starts every runner the queue can use now, after the monitor freed slots.
    func startRunnersForMonitor() {
        lock.lock()
        let actions = state.monitorFreedSlots(queuedEntries: jobs.count, computing: counts.computingNow)
        applyUnderLock(actions)
        lock.unlock()
        apply(actions)
    }

    /// Marks the monitor gone, under the lock, so that a later need starts a new one.
    func monitorDidExit() {
        lock.lock()
        state.monitorExited()
        lock.unlock()
    }
}

/// A weak reference to a pool, for the registry of live pools.
private final class WeakPool: Sendable {
    weak let pool: ThreadPool?
    init(_ pool: ThreadPool) { self.pool = pool }
}
