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
/// The rules, all decided under `lock` by `PoolCensus`:
/// - Starting a runner means waking an idle worker (a wake-up token it must take) or spawning a
///   thread. Runners on their way (woken, spawned, or spinning) count as coming, so a burst of
///   submits never starts more runners than jobs or slots.
/// - A submit starts at most one runner; a worker that takes a job starts up to two more if jobs
///   and slots remain, so runners multiply without the submitter paying for them.
/// - A worker that finds the queue empty watches it for `spinNanoseconds` before it waits, when no
///   other worker watches already: a program that makes background futures one after another then
///   hands them over without waking a sleeping thread for each.
/// - An idle worker beyond `keptThreads` exits after `idleTimeout` without work.
final class ThreadPool: ContextScheduler, @unchecked Sendable {
    // @unchecked: `jobs`, `census`, `workers`, `isShutDown`, `monitorRequested` and
    // `monitorExists` are read and written only while `lock` is held; `monitorWakeUps` only while
    // `monitorCondition` is held; the rest is immutable or atomic.

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
        var monitorInterval: Duration = .milliseconds(1)
        /// The threads' quality of service, where the platform has one.
        var qualityOfService: QualityOfService = .default
    }

    let configuration: Configuration

    private let lock = PoolLock()
    @exclusivity(unchecked) private var jobs = JobRing()
    @exclusivity(unchecked) private var census: PoolCensus
    @exclusivity(unchecked) private var workers: [WorkerRecord] = []
    @exclusivity(unchecked) private var isShutDown = false
    @exclusivity(unchecked) private var monitorExists = false
    @exclusivity(unchecked) private var monitorRequested = false

    /// How many jobs were ever submitted: written under `lock`, read without it by a watching
    /// worker, on a cache line of its own.
    private let submits = PaddedCounter()
    /// The threads alive, mirrored from `census.threads` for readers that look without the lock.
    private let threadCount = Atomic<Int>(0)
    /// The most threads alive at once, for tests and benchmarks.
    private let threadPeak = Atomic<Int>(0)
    /// How many times the monitor found a computing runner blocked and freed its slot, for tests
    /// and benchmarks: each may let the pool start one more thread.
    let blockedVerdicts = Atomic<Int>(0)

    let monitorCondition = NSCondition()
    @exclusivity(unchecked) var monitorWakeUps = 0

    /// How long a worker watches an empty queue before it waits; zero on a single core, where
    /// watching would only take the core from the submitter.
    static let spinNanoseconds: UInt64 = ContextScheduler.cores > 1 ? 50_000 : 0
    /// The stack of each worker: nested reads run queued work inline, one frame on another.
    static let stackSize = 8 << 20

    init(_ configuration: Configuration) {
        precondition(
            configuration.maxThreads >= configuration.cpuSlots,
            "a thread pool's bound (\(configuration.maxThreads)) must be at least its CPU slots "
                + "(\(configuration.cpuSlots))")
        self.configuration = configuration
        census = PoolCensus(cpuSlots: configuration.cpuSlots, maxThreads: configuration.maxThreads)
        super.init(cpuSlots: configuration.cpuSlots)
        let address = ObjectIdentifier(self)
        let unretained = Unmanaged.passUnretained(self)
        Self.live.withLock { pools in pools[address] = unretained }
    }

    deinit {
        let address = ObjectIdentifier(self)
        Self.live.withLock { pools in _ = pools.removeValue(forKey: address) }
    }

    /// Every pool alive, unretained, for ``FutureDiagnostics/waitingFutures()``; a pool removes
    /// itself in `deinit`, under the lock.
    ///
    /// Not weak references: a weak reference gives the object a side table, and then every retain
    /// and release of it takes the runtime's slow path. Every future made on a pool retains the
    /// pool once and releases it once, so a weak list cost about 450 instructions a future, a
    /// third of a trivial background job.
    private static let live = LockedBox<[ObjectIdentifier: Unmanaged<ThreadPool>]>([:])

    /// Calls `body` with each pool alive, under the registry's lock: a pool whose last reference
    /// goes meanwhile waits in `deinit` until `body` is done with it.
    static func forEachLivePool(_ body: (ThreadPool) -> Void) {
        live.withLock { pools in
            for pool in pools.values { pool._withUnsafeGuaranteedRef { body($0) } }
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

    override var canStartMoreRunners: Bool {
        threadCount.load(ordering: .relaxed) < configuration.maxThreads
    }

    override var runnerQoS: ThreadQoS { ThreadQoS(configuration.qualityOfService) }

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

    override func submit(_ job: Job) {
        queued.wrappingAdd(1, ordering: .relaxed)
        lock.lock()
        jobs.push(job)
        submits.store(submits.load() &+ 1)
        let start = planStart(limit: 1)
        let wakeMonitor = requestMonitorIfNeeded()
        lock.unlock()
        perform(start)
        if wakeMonitor { self.wakeMonitor() }
    }

    override func execute(_ work: @escaping @Sendable () -> Void) {
        submit(.closure(work))
    }

    override func readerClaimed(_ future: _FutureCore) {
        lock.lock()
        let entry = jobs.removeNewest(ifFutureIs: future)
        lock.unlock()
        _ = entry  // released here, after the lock
    }

    override func runnerSlotFreed() {
        lock.lock()
        let start = planStart(limit: 1)
        lock.unlock()
        perform(start)
    }

    /// Stops the pool once its queued work has run: its workers and its monitor exit.
    func shutDown() {
        lock.lock()
        isShutDown = true
        lock.broadcast()
        lock.unlock()
        wakeMonitor()
    }

    // MARK: Starting runners (under `lock`)

    /// Decides to start up to `limit` runners; `perform` carries the decision out after the lock.
    private func planStart(limit: Int) -> PoolCensus.Start {
        census.queued = jobs.count
        census.computing = computing.load(ordering: .relaxed)
        let start = census.startRunners(limit: limit)
        for _ in 0..<start.wake { lock.signal() }
        if start.spawn > 0 {
            threadCount.store(census.threads, ordering: .relaxed)
            recordPeak(census.threads)
        }
        return start
    }

    /// Whether the monitor should start watching: work waits for a slot and it is not watching.
    private func requestMonitorIfNeeded() -> Bool {
        census.queued = jobs.count
        census.computing = computing.load(ordering: .relaxed)
        guard configuration.detectsBlocking, !monitorRequested, !isShutDown, census.workWaitsForASlot else {
            return false
        }
        monitorRequested = true
        if !monitorExists {
            monitorExists = true
            startMonitorThread()
            return false
        }
        return true
    }

    private func perform(_ start: PoolCensus.Start) {
        for _ in 0..<start.spawn { spawnWorker() }
    }

    private func recordPeak(_ count: Int) {
        var seen = threadPeak.load(ordering: .relaxed)
        while count > seen {
            let (exchanged, original) = threadPeak.compareExchange(expected: seen, desired: count, ordering: .relaxed)
            if exchanged { break }
            seen = original
        }
    }

    // MARK: Workers

    private func spawnWorker() {
        let thread = Thread { [self] in
            nameCurrentThread(configuration.label)
            workerMain()
        }
        thread.stackSize = Self.stackSize
        thread.qualityOfService = configuration.qualityOfService
        thread.start()
    }

    private func workerMain() {
        let record = WorkerRecord(pool: self, probe: .ofCurrentThread(), thread: .current)
        let state = ThreadState.current
        state.worker = record
        lock.lock()
        workers.append(record)
        census.starting -= 1
        runJobs(record: record, state: state)
        workers.removeAll { $0 === record }
        census.threads -= 1
        threadCount.store(census.threads, ordering: .relaxed)
        lock.unlock()
        state.worker = nil
    }

    /// The worker's loop. Called and returns with `lock` held.
    private func runJobs(record: WorkerRecord, state: ThreadState) {
        // Whether this worker has just watched the queue, in vain: it waits next instead.
        var watched = false
        // Whether the worker has just ended a job and is still in that job's state.
        var endingJob = false
        while true {
            let mayRun =
                endingJob
                ? record.mayGoOn(computing: computing.load(ordering: .relaxed), cpuSlots: cpuSlots)
                : computing.load(ordering: .relaxed) < cpuSlots
            if !jobs.isEmpty, mayRun {
                var job = jobs.pop()
                // A future's job leaves `queued` when its work leaves `pending`; a closure, now.
                if case .closure? = job { queued.wrappingSubtract(1, ordering: .relaxed) }
                if endingJob { record.nextJob() } else { record.beginJob() }
                endingJob = false
                let start = planStart(limit: 2)
                let wakeMonitor = requestMonitorIfNeeded()
                lock.unlock()
                perform(start)
                if wakeMonitor { self.wakeMonitor() }
                state.countedBy = self
                if let job { record.run(job) }
                // Released before the worker takes the lock again: a future's deinit may run
                // arbitrary code, even code that submits work here.
                job = nil
                state.countedBy = nil
                // The job ends under the lock, so that no decision sees its slot free while this
                // worker, about to look at the queue again, is neither computing nor coming; if
                // a job waits, the worker goes on to it in the same state.
                lock.lock()
                endingJob = true
                watched = false
                continue
            }
            if endingJob {
                record.endJob()
                endingJob = false
            }
            if isShutDown && jobs.isEmpty {
                // Workers that wait for a slot after the shutdown look again, and exit too.
                lock.broadcast()
                return
            }
            if jobs.isEmpty, !watched, census.spinning == 0, Self.spinNanoseconds > 0 {
                census.spinning = 1
                lock.unlock()
                watchForWork()
                lock.lock()
                census.spinning = 0
                watched = true
                continue
            }
            // A worker that was on its way (woken, or watching the queue) and finds no free slot
            // stops counting as coming: if work now waits for a slot, the monitor must watch.
            if !jobs.isEmpty, requestMonitorIfNeeded() { wakeMonitor() }
            if waitForWakeUp() == .retire { return }
            watched = false
        }
    }

    /// Watches for work that nobody takes: returns when work stays unclaimed from one look to the
    /// next, or once `spinNanoseconds` pass without a submit.
    ///
    /// A program that makes background futures and reads each at once runs them itself (and takes
    /// their entries back, `readerClaimed`): this worker keeps watching while submits go on, so
    /// that none of them pays for waking it, and it takes the lock only for work left to it.
    private func watchForWork() {
        var now = monotonicNanoseconds()
        var deadline = now &+ Self.spinNanoseconds
        var lastSubmit = submits.load()
        var sawWork = false
        while now < deadline {
            // One look about every `pollNanoseconds`: each look pulls cache lines to this core,
            // which the submitter must then take back.
            let nextLook = now &+ Self.pollNanoseconds
            while now < nextLook { now = monotonicNanoseconds() }
            if queued.load(ordering: .relaxed) > 0 {
                if sawWork { return }
                sawWork = true
            } else {
                sawWork = false
            }
            let submit = submits.load()
            if submit != lastSubmit {
                lastSubmit = submit
                deadline = now &+ Self.spinNanoseconds
            }
        }
    }

    /// How often a watching worker looks.
    private static let pollNanoseconds: UInt64 = 200

    private enum WakeUp { case work, retire }

    /// Waits idle until a wake-up token comes; an extra thread gives up after `idleTimeout`
    /// without one and retires. Called and returns with `lock` held.
    private func waitForWakeUp() -> WakeUp {
        census.idle += 1
        defer { census.idle -= 1 }
        let mayRetire = census.threads > configuration.keptThreads
        let deadline = WallClockDeadline.after(configuration.idleTimeout)
        // After a shutdown a worker leaves this wait to run what is left, or to exit once nothing
        // is; while jobs are left and no slot is free, it waits like any other: returning at once
        // would make it spin, holding the lock that the runner about to free a slot must take.
        while census.wakeTokens == 0
            && !(isShutDown && (jobs.isEmpty || computing.load(ordering: .relaxed) < cpuSlots))
        {
            if mayRetire {
                if !lock.wait(until: deadline) { break }
            } else {
                lock.wait()
            }
        }
        if census.wakeTokens > 0 {
            census.wakeTokens -= 1
            return .work
        }
        if isShutDown { return jobs.isEmpty ? .retire : .work }
        return jobs.isEmpty && census.threads > configuration.keptThreads ? .retire : .work
    }

    /// The pool's counts and its workers' states, for messages and debugging.
    var stateDescription: String {
        lock.lock()
        defer { lock.unlock() }
        let states = workers.map { "\($0.currentState)" }.joined(separator: ",")
        return "\(configuration.label): queued \(jobs.count), computing \(computing.load(ordering: .relaxed)), "
            + "\(census), workers [\(states)], monitor \(monitorExists ? (monitorRequested ? "watching" : "asleep") : "none")"
    }

    // MARK: For the monitor

    /// What the monitor looks at: the workers running a job, and whether work waits for a slot
    /// now. With `mayStop`, a look that finds the queue empty also lets the monitor stop (and
    /// says so): a later need wakes it again.
    func lookForMonitor(mayStop: Bool) -> MonitorLook {
        lock.lock()
        defer { lock.unlock() }
        census.queued = jobs.count
        census.computing = computing.load(ordering: .relaxed)
        let stopped = mayStop && jobs.isEmpty
        if stopped { monitorRequested = false }
        let running = workers.filter { $0.currentState != .idle }
        return MonitorLook(
            running: running, workWaits: census.workWaitsForASlot, slotWaits: census.slotWaitsForARunner,
            stopped: stopped, shutDown: isShutDown)
    }

    /// What the monitor sees at one look.
    struct MonitorLook {
        /// The workers running a job.
        var running: [WorkerRecord]
        /// Work waits for a slot: a blocked runner's slot may be worth freeing.
        var workWaits: Bool
        /// Work waits beside a free slot, with no runner on its way: one must be started.
        var slotWaits: Bool
        /// The queue was empty long enough: the monitor stops until it is needed again.
        var stopped: Bool
        /// The pool was shut down: the monitor exits.
        var shutDown: Bool
    }

    /// Starts every runner the queue can use now, after the monitor freed slots.
    func startRunnersForMonitor() {
        lock.lock()
        let start = planStart(limit: .max)
        lock.unlock()
        perform(start)
    }

    /// Marks the monitor gone, under the lock, so that a later need starts a new one.
    func monitorDidExit() {
        lock.lock()
        monitorExists = false
        monitorRequested = false
        lock.unlock()
    }
}

/// An atomic counter alone on its cache line, for a value that one thread writes and another
/// watches in a loop: sharing a line with counters that other threads change would make each of
/// their changes take the line back from the watcher.
final class PaddedCounter: @unchecked Sendable {
    // @unchecked: the storage is allocated once, holds one `Atomic`, and is used only through it.
    private let storage: UnsafeMutableRawPointer

    init() {
        storage = .allocate(byteCount: 128, alignment: 128)
        storage.initializeMemory(as: Atomic<Int>.self, to: Atomic(0))
    }

    deinit {
        storage.assumingMemoryBound(to: Atomic<Int>.self).deinitialize(count: 1)
        storage.deallocate()
    }

    func load() -> Int {
        storage.assumingMemoryBound(to: Atomic<Int>.self).pointee.load(ordering: .relaxed)
    }

    func store(_ value: Int) {
        storage.assumingMemoryBound(to: Atomic<Int>.self).pointee.store(value, ordering: .relaxed)
    }
}
