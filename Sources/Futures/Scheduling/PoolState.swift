/// A thread pool's counts and decisions as one value, mutated only under the pool's lock: each
/// transition returns what the pool must do (`Actions`), so `PoolStateTests` need no threads.
/// Each decision is given `queuedEntries` (the ring's length, claimed entries included until a
/// runner drops them) and `computing` (`RunnerCounts`, changed without the lock).
struct PoolState: Equatable {
    let cpuSlots: Int
    /// Threads allowed, blocked ones included.
    let maxThreads: Int
    /// Threads kept when idle; the others retire after the idle timeout.
    let keptThreads: Int
    let detectsBlocking: Bool
    /// Whether a worker watches the empty queue a moment before it waits.
    let watchesWhenIdle: Bool

    private(set) var queuedEntries = 0
    private(set) var computing = 0
    private(set) var threads = 0
    /// Workers waiting for a wake-up.
    private(set) var idle = 0
    /// Wake-ups sent and not yet taken, each to one chosen worker, which alone may take it.
    private(set) var wakeTokens = 0
    /// Workers spawned that have not yet looked for work.
    private(set) var starting = 0
    /// Workers watching the empty queue; 0 or 1.
    private(set) var spinning = 0
    /// Workers and monitor exit once the queue is empty.
    private(set) var isShutDown = false
    private(set) var monitorExists = false
    /// The monitor was asked to watch and has not stopped since.
    private(set) var monitorRequested = false

    init(cpuSlots: Int, maxThreads: Int, keptThreads: Int, detectsBlocking: Bool, watchesWhenIdle: Bool) {
        self.cpuSlots = cpuSlots
        self.maxThreads = maxThreads
        self.keptThreads = keptThreads
        self.detectsBlocking = detectsBlocking
        self.watchesWhenIdle = watchesWhenIdle
    }

    // MARK: What the pool does

    /// What a transition asks of the pool: wake-ups are signalled under its lock; spawns and the
    /// monitor come after it.
    struct Actions: Equatable {
        /// Idle workers to wake, each with a token it must take.
        var wake = 0
        /// Threads to spawn (already counted in `threads` and `starting`).
        var spawn = 0
        var monitor = Monitor.nothing

        enum Monitor: Equatable { case nothing, start, wake }
    }

    // MARK: Derived counts

    /// Workers on their way to the queue.
    var comingRunners: Int { wakeTokens + starting + spinning }

    /// One per queued entry no coming runner will take, while slots are free.
    var runnersWanted: Int { max(0, min(queuedEntries - comingRunners, cpuSlots - computing - comingRunners)) }

    /// Queued work waits for a slot only the monitor's detection could free: the monitor watches.
    var workWaitsForASlot: Bool { queuedEntries > comingRunners && computing + comingRunners >= cpuSlots }

    /// A slot freed without a start: the monitor starts the runners.
    var slotWaitsForARunner: Bool { runnersWanted > 0 }

    // MARK: Transitions of jobs

    /// A submit starts at most one runner.
    mutating func jobSubmitted(queuedEntries: Int, computing: Int) -> Actions {
        observe(queuedEntries: queuedEntries, computing: computing)
        var actions = startRunners(limit: 1)
        actions.monitor = requestMonitor()
        return actions
    }

    /// A worker that took a job starts up to two more, so runners multiply without the submitter
    /// paying for them.
    mutating func workerTookJob(queuedEntries: Int, computing: Int) -> Actions {
        observe(queuedEntries: queuedEntries, computing: computing)
        var actions = startRunners(limit: 2)
        actions.monitor = requestMonitor()
        return actions
    }

    /// A counted runner stopped while jobs were unclaimed: its slot goes to one.
    mutating func slotFreed(queuedEntries: Int, computing: Int) -> Actions {
        observe(queuedEntries: queuedEntries, computing: computing)
        return startRunners(limit: 1)
    }

    mutating func monitorFreedSlots(queuedEntries: Int, computing: Int) -> Actions {
        observe(queuedEntries: queuedEntries, computing: computing)
        return startRunners(limit: .max)
    }

    mutating func shutDown() { isShutDown = true }

    // MARK: Transitions of a worker

    mutating func workerStarted() { starting -= 1 }
    mutating func workerExited() { threads -= 1 }

    /// A worker that `holdsASlot` (just ended a job, still counted) passes its slot to the next
    /// job; any other needs a free one. So runners beyond the limit stop as their jobs end.
    func workerMayTakeJob(queuedEntries: Int, computing: Int, holdsASlot: Bool) -> Bool {
        queuedEntries > 0 && (holdsASlot ? computing <= cpuSlots : computing < cpuSlots)
    }

    /// What a worker that takes no job does next.
    enum IdleStep: Equatable {
        case exit
        /// Watch the empty queue (now `spinning`), then `watchEnded()` and look again.
        case watch
        /// Carry out `actions`, then wait for a wake-up.
        case wait(Actions)
    }

    /// A worker found no job it may take; having `watched` in vain, it waits. If work waits for
    /// a slot, the monitor must watch.
    mutating func workerFoundNoJob(queuedEntries: Int, computing: Int, watched: Bool) -> IdleStep {
        observe(queuedEntries: queuedEntries, computing: computing)
        if isShutDown && queuedEntries == 0 { return .exit }
        if queuedEntries == 0, !watched, spinning == 0, watchesWhenIdle {
            spinning = 1
            return .watch
        }
        var actions = Actions()
        if queuedEntries > 0 { actions.monitor = requestMonitor() }
        return .wait(actions)
    }

    mutating func watchEnded() { spinning = 0 }

    /// Returns whether the worker may retire when its wait times out.
    mutating func idleWaitBegan() -> Bool {
        idle += 1
        return threads > keptThreads
    }

    /// No token, and not shut down with something to do (exit on an empty queue, or run on a free
    /// slot). After a shutdown with jobs left and no free slot it waits like any other: returning
    /// at once would spin on the lock the runner freeing a slot must take.
    func idleWorkerKeepsWaiting(hasToken: Bool, queuedEntries: Int, computing: Int) -> Bool {
        !hasToken && !(isShutDown && (queuedEntries == 0 || computing < cpuSlots))
    }

    enum WakeUp: Equatable { case work, retire }

    /// With its token a worker looks for work; without, an extra thread retires on an empty queue.
    mutating func idleWaitEnded(queuedEntries: Int, tookToken: Bool) -> WakeUp {
        idle -= 1
        if tookToken {
            wakeTokens -= 1
            return .work
        }
        if isShutDown { return queuedEntries == 0 ? .retire : .work }
        return queuedEntries == 0 && threads > keptThreads ? .retire : .work
    }

    /// The idle workers a decision may wake.
    var idleWithoutToken: Int { idle - wakeTokens }

    // MARK: Transitions of the monitor

    struct MonitorLook: Equatable {
        /// Work waits for a slot (`workWaitsForASlot`).
        var workWaits: Bool
        /// Work waits beside a free slot (`slotWaitsForARunner`).
        var slotWaits: Bool
        /// The monitor stops until needed again.
        var stopped: Bool
        var shutDown: Bool
    }

    /// With `mayStop`, a look at an empty queue stops the monitor; a later need wakes it.
    mutating func monitorLooks(queuedEntries: Int, computing: Int, mayStop: Bool) -> MonitorLook {
        observe(queuedEntries: queuedEntries, computing: computing)
        let stopped = mayStop && queuedEntries == 0
        if stopped { monitorRequested = false }
        return MonitorLook(
            workWaits: workWaitsForASlot, slotWaits: slotWaitsForARunner, stopped: stopped, shutDown: isShutDown)
    }

    mutating func monitorExited() {
        monitorExists = false
        monitorRequested = false
    }

    // MARK: The decisions

    private mutating func observe(queuedEntries: Int, computing: Int) {
        self.queuedEntries = queuedEntries
        self.computing = computing
    }

    /// Up to `limit` runners, idle workers first, then new threads; counted as coming.
    private mutating func startRunners(limit: Int) -> Actions {
        let wanted = min(limit, runnersWanted)
        guard wanted > 0 else { return Actions() }
        let wake = min(wanted, idleWithoutToken)
        let spawn = min(wanted - wake, maxThreads - threads)
        wakeTokens += wake
        threads += spawn
        starting += spawn
        return Actions(wake: wake, spawn: spawn)
    }

    private mutating func requestMonitor() -> Actions.Monitor {
        guard detectsBlocking, !monitorRequested, !isShutDown, workWaitsForASlot else { return .nothing }
        monitorRequested = true
        if !monitorExists {
            monitorExists = true
            return .start
        }
        return .wake
    }
}

extension PoolState: CustomStringConvertible {
    var description: String {
        "threads \(threads) (idle \(idle), starting \(starting), spinning \(spinning)), wake-ups \(wakeTokens), "
            + "monitor \(monitorExists ? (monitorRequested ? "watching" : "asleep") : "none")"
            + (isShutDown ? ", shut down" : "")
    }
}
