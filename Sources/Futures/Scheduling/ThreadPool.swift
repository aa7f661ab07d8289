import Foundation
import Synchronization

/// Futures' own threads behind a context: a FIFO ring of jobs, at most `cpuSlots` runners
/// computing, more threads (up to `maxThreads`) while runners park (`RunnerAccounting`) or block
/// (`ThreadPool+Monitor.swift`); idle extra threads retire. Every decision is `PoolState`'s, made
/// under `lock`; this class carries out the actions it returns.
final class ThreadPool: JobRunner, @unchecked Sendable {
    // @unchecked: `jobs`, `state`, `workers`, `idleWaiters` and `signalsToDrop` are used only under
    // `lock`; `monitorWakeUps` only under `monitorCondition`; the rest is immutable or atomic.

    struct Configuration: Sendable {
        /// Worker thread name (Linux keeps 15 bytes); the monitor's is `futures.monitor`.
        var label: String
        var cpuSlots: Int
        /// Threads allowed, blocked ones included.
        var maxThreads: Int
        /// Threads kept when idle; the others exit after `idleTimeout`.
        var keptThreads: Int
        var idleTimeout: Duration
        /// Useless when slots equal the bound.
        var detectsBlocking: Bool
        var monitorInterval = EngineTiming.monitorInterval
        var qualityOfService: QualityOfService = .default
    }

    let configuration: Configuration
    /// Read by readers without the lock.
    let counts: RunnerCounts

    let lock = PoolLock()
    // Guarded by `lock`. The two a submitting or claiming reader touches skip exclusivity checks
    // (gated: background hand-off).
    @exclusivity(unchecked) var jobs = JobRing()
    @exclusivity(unchecked) var state: PoolState
    var workers: [WorkerRecord] = []
    /// Idle workers without a token, most recently idle last: `state.idleWithoutToken` of them.
    var idleWaiters: [IdleWaiter] = []
    /// Wake-ups to send without their signal, as a lost signal would (tests, `LostWakeUps`).
    private var signalsToDrop = 0

    /// Written under `lock`, read without it by a watching worker.
    let submits = PaddedCounter()
    /// `state.threads`, mirrored for lock-free readers.
    let threadCount = Atomic<Int>(0)
    private let threadPeak = Atomic<Int>(0)
    /// Times the monitor freed a blocked runner's slot (tests and benchmarks).
    let blockedVerdicts = Atomic<Int>(0)

    let monitorCondition = NSCondition()
    var monitorWakeUps = 0

    static let spinNanoseconds = EngineTiming.workerWatchNanoseconds
    /// Nested reads run queued work inline, frame on frame.
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

    /// Every pool alive, weakly, for ``FutureDiagnostics/waitingFutures()``.
    private static let live = LockedBox<[ObjectIdentifier: WeakPool]>([:])

    static func forEachLivePool(_ body: (ThreadPool) -> Void) {
        for entry in live.withLock({ Array($0.values) }) {
            if let pool = entry.pool { body(pool) }
        }
    }

    /// Queued, unclaimed futures, oldest first.
    func queuedFutures() -> [_FutureCore] {
        lock.lock()
        defer { lock.unlock() }
        var futures: [_FutureCore] = []
        jobs.forEach { job in
            if case .future(let future, _) = job, future._word.phase == .pending { futures.append(future) }
        }
        return futures
    }

    var threads: (now: Int, peak: Int) { (threadCount.load(ordering: .relaxed), threadPeak.load(ordering: .relaxed)) }
    var canStartMoreRunners: Bool { threadCount.load(ordering: .relaxed) < configuration.maxThreads }
    var runnerQoS: ThreadQoS { ThreadQoS(configuration.qualityOfService) }

    /// Calls `body` under `lock` with the thread running `future`'s work: a worker leaves
    /// `workers` under the lock before its thread ends, so the thread lives while `body` runs.
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

    func execute(_ work: @escaping @Sendable () -> Void) { submit(.closure(work)) }

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

    /// Workers and monitor exit once the queued work has run.
    func shutDown() {
        lock.lock()
        state.shutDown()
        wakeEveryIdleWorker()
        lock.unlock()
        wakeMonitor()
    }

    // MARK: Carrying out the state's decisions

    /// Under `lock`: wake-ups (a token to the most recently idle worker each), thread count.
    func applyUnderLock(_ actions: PoolState.Actions) {
        assert(idleWaiters.count == state.idleWithoutToken + actions.wake, "idle waiters and PoolState disagree")
        for _ in 0..<actions.wake {
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
            threadPeak.max(state.threads, ordering: .relaxed)
        }
    }

    /// After `lock`: spawns and the monitor.
    func apply(_ actions: PoolState.Actions) {
        for _ in 0..<actions.spawn { spawnWorker() }
        switch actions.monitor {
        case .nothing: break
        case .start: startMonitorThread()
        case .wake: wakeMonitor()
        }
    }

    /// After a shutdown, so each runs what is left or exits. Called with `lock` held.
    func wakeEveryIdleWorker() {
        for waiter in idleWaiters { waiter.wakeUp.signal() }
    }

    /// Tests.
    var idleWorkersWithoutToken: Int {
        lock.lock()
        defer { lock.unlock() }
        return idleWaiters.count
    }

    /// Tests: the next `count` wake-ups lose their signal (`LostWakeUps`).
    func dropSignals(_ count: Int) {
        lock.lock()
        signalsToDrop += count
        lock.unlock()
    }

    var stateDescription: String {
        lock.lock()
        defer { lock.unlock() }
        let states = workers.map { "\($0.currentState)" }.joined(separator: ",")
        return "\(configuration.label): queued \(jobs.count), computing \(counts.computingNow), "
            + "unclaimed \(counts.unclaimedNow), \(state), workers [\(states)]"
    }

    // MARK: For the monitor

    /// The workers running a job, and `PoolState.monitorLooks`.
    func lookForMonitor(mayStop: Bool) -> (running: [WorkerRecord], look: PoolState.MonitorLook) {
        lock.lock()
        defer { lock.unlock() }
        let look = state.monitorLooks(queuedEntries: jobs.count, computing: counts.computingNow, mayStop: mayStop)
        return (workers.filter { $0.currentState != .idle }, look)
    }

    func startRunnersForMonitor() {
        lock.lock()
        let actions = state.monitorFreedSlots(queuedEntries: jobs.count, computing: counts.computingNow)
        applyUnderLock(actions)
        lock.unlock()
        apply(actions)
    }

    func monitorDidExit() {
        lock.lock()
        state.monitorExited()
        lock.unlock()
    }
}

private final class WeakPool: Sendable {
    weak let pool: ThreadPool?
    init(_ pool: ThreadPool) { self.pool = pool }
}
