/// Every count a thread pool keeps under its lock, and every decision made from them, as one
/// value: each mutating method is a transition that returns what the pool must do (wake idle
/// workers, spawn threads, start or wake the monitor), and `ThreadPool` applies it under its lock.
/// Each field has one writer, this type; `PoolStateTests` test the transitions without threads.
///
/// Two inputs are not the state's own and come with each decision: `queuedEntries`, the length of
/// the pool's job ring (entries whose future a reader claimed included, until a runner takes them
/// out), and `computing`, the runners computing now (`RunnerCounts`, an atomic that runners
/// change without the lock). The state keeps the last values it was given, for the monitor's
/// questions and for messages.
struct PoolState: Equatable {
    /// How many runners may compute at once.
    let cpuSlots: Int
    /// How many threads the pool may have, blocked ones included.
    let maxThreads: Int
    /// Threads kept when idle; the others retire after the pool's idle timeout.
    let keptThreads: Int
    /// Whether a monitor watches for blocked runners.
    let detectsBlocking: Bool
    /// Whether a worker that finds the queue empty watches it for a moment before it waits.
    let watchesWhenIdle: Bool

    /// Entries in the job ring, as last given.
    private(set) var queuedEntries = 0
    /// Runners computing, as last given.
    private(set) var computing = 0
    /// Live worker threads.
    private(set) var threads = 0
    /// Workers waiting for a wake-up.
    private(set) var idle = 0
    /// Wake-ups sent to idle workers and not yet taken. Each is sent to one chosen worker
    /// (`ThreadPool`'s idle waiters), which alone may take it.
    private(set) var wakeTokens = 0
    /// Workers spawned that have not yet looked for work.
    private(set) var starting = 0
    /// Workers watching the empty queue for a moment before they wait; 0 or 1.
    private(set) var spinning = 0
    /// Whether the pool was shut down: its workers and monitor exit once the queue is empty.
    private(set) var isShutDown = false
    /// Whether the monitor's thread lives.
    private(set) var monitorExists = false
    /// Whether the monitor was asked to watch and has not stopped since.
    private(set) var monitorRequested = false

    init(cpuSlots: Int, maxThreads: Int, keptThreads: Int, detectsBlocking: Bool, watchesWhenIdle: Bool) {
        self.cpuSlots = cpuSlots
        self.maxThreads = maxThreads
        self.keptThreads = keptThreads
        self.detectsBlocking = detectsBlocking
        self.watchesWhenIdle = watchesWhenIdle
    }

    // MARK: What the pool does

    /// What a transition asks the pool to do. Wake-ups are signals of the pool's condition, sent
    /// under its lock; threads are spawned and the monitor started or woken after it.
    struct Actions: Equatable {
        /// Idle workers to wake, each with a wake-up token it must take.
        var wake = 0
        /// Worker threads to spawn (already counted in `threads` and `starting`).
        var spawn = 0
        /// What the monitor must do.
        var monitor = Monitor.nothing

        enum Monitor: Equatable {
            case nothing
            /// Start the monitor's thread (no monitor lives).
            case start
            /// Wake the monitor, which sleeps.
            case wake
        }
    }

    // MARK: Derived counts

    /// Workers on their way to the queue: each will take a job if one is there and a slot is free.
    var comingRunners: Int { wakeTokens + starting + spinning }

    /// How many more runners the queue could use now: one per queued entry that no coming runner
    /// will take, as long as CPU slots are free.
    var runnersWanted: Int {
        max(0, min(queuedEntries - comingRunners, cpuSlots - computing - comingRunners))
    }

    /// Whether queued work waits for a slot that only a blocked runner's detection could free:
    /// the condition for the monitor to watch the runners.
    var workWaitsForASlot: Bool {
        queuedEntries > comingRunners && computing + comingRunners >= cpuSlots
    }

    /// Whether queued work could start now on a free slot, with no runner on its way to it: what
    /// a slot freed without a start leaves (the monitor then starts the runners).
    var slotWaitsForARunner: Bool { runnersWanted > 0 }

    // MARK: Transitions of jobs

    /// A job was pushed onto the ring: start at most one runner, and ask the monitor to watch if
    /// work now waits for a slot.
    mutating func jobSubmitted(queuedEntries: Int, computing: Int) -> Actions {
        observe(queuedEntries: queuedEntries, computing: computing)
        var actions = startRunners(limit: 1)
        actions.monitor = requestMonitor()
        return actions
    }

    /// A worker took a job off the ring: it starts up to two more runners if jobs and slots
    /// remain, so that runners multiply without the submitter paying for them.
    mutating func workerTookJob(queuedEntries: Int, computing: Int) -> Actions {
        observe(queuedEntries: queuedEntries, computing: computing)
        var actions = startRunners(limit: 2)
        actions.monitor = requestMonitor()
        return actions
    }

    /// A counted runner stopped computing while jobs were unclaimed: its slot goes to one of them.
    mutating func slotFreed(queuedEntries: Int, computing: Int) -> Actions {
        observe(queuedEntries: queuedEntries, computing: computing)
        return startRunners(limit: 1)
    }

    /// The monitor freed slots (or found one free): start every runner the queue can use.
    mutating func monitorFreedSlots(queuedEntries: Int, computing: Int) -> Actions {
        observe(queuedEntries: queuedEntries, computing: computing)
        return startRunners(limit: .max)
    }

    /// The pool is shut down: its workers run what is queued, then exit, and so does the monitor.
    mutating func shutDown() {
        isShutDown = true
    }

    // MARK: Transitions of a worker

    /// A spawned worker looks for work for the first time: it is no longer on its way.
    mutating func workerStarted() {
        starting -= 1
    }

    /// A worker's thread exits.
    mutating func workerExited() {
        threads -= 1
    }

    /// Whether a worker may take the next job: one is queued, and a CPU slot is free for it. A
    /// worker that `holdsASlot` (it just ended a job, counted as computing) gives its own slot to
    /// the next job, so it may while no more than `cpuSlots` compute, itself included; any other
    /// needs a free slot. So when the limit falls, the runners beyond it stop as their jobs end.
    func workerMayTakeJob(queuedEntries: Int, computing: Int, holdsASlot: Bool) -> Bool {
        queuedEntries > 0 && (holdsASlot ? computing <= cpuSlots : computing < cpuSlots)
    }

    /// What a worker that takes no job does next.
    enum IdleStep: Equatable {
        /// The pool is shut down and the queue empty: exit.
        case exit
        /// Watch the empty queue for a moment (the worker is now `spinning`), then look again
        /// (`watchEnded()`).
        case watch
        /// Wait for a wake-up, after carrying out `actions`.
        case wait(Actions)
    }

    /// A worker found no job it may take. `watched` says whether it has just watched the queue in
    /// vain, in which case it waits next. A worker that was on its way (woken, or watching) and
    /// finds no free slot stops counting as coming: if work now waits for a slot, the monitor must
    /// watch.
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

    /// The watching worker stopped watching.
    mutating func watchEnded() {
        spinning = 0
    }

    /// A worker begins to wait for a wake-up. Returns whether it may retire when its wait times
    /// out: it is one of more than `keptThreads` threads.
    mutating func idleWaitBegan() -> Bool {
        idle += 1
        return threads > keptThreads
    }

    /// Whether a waiting worker goes on waiting: no wake-up token was sent to it (`hasToken`), and
    /// the pool is not shut down with work it could run (nothing queued, so it exits, or a free
    /// slot). After a shutdown a worker leaves its wait to run what is left, or to exit once
    /// nothing is; while jobs are left and no slot is free, it waits like any other: returning at
    /// once would make it spin, holding the lock that the runner about to free a slot must take.
    func idleWorkerKeepsWaiting(hasToken: Bool, queuedEntries: Int, computing: Int) -> Bool {
        !hasToken && !(isShutDown && (queuedEntries == 0 || computing < cpuSlots))
    }

    /// What a worker does after its wait for a wake-up.
    enum WakeUp: Equatable { case work, retire }

    /// A worker's wait for a wake-up ended (a token was sent to it, the pool shut down, or the
    /// wait timed out): with its token (`tookToken`) it looks for work; without one it retires if
    /// it is an extra thread and nothing is queued.
    mutating func idleWaitEnded(queuedEntries: Int, tookToken: Bool) -> WakeUp {
        idle -= 1
        if tookToken {
            wakeTokens -= 1
            return .work
        }
        if isShutDown { return queuedEntries == 0 ? .retire : .work }
        return queuedEntries == 0 && threads > keptThreads ? .retire : .work
    }

    /// Idle workers that no wake-up token was sent to: the ones a decision may wake.
    var idleWithoutToken: Int { idle - wakeTokens }

    // MARK: Transitions of the monitor

    /// What the monitor sees at one look.
    struct MonitorLook: Equatable {
        /// Work waits for a slot: a blocked runner's slot may be worth freeing.
        var workWaits: Bool
        /// Work waits beside a free slot, with no runner on its way: one must be started.
        var slotWaits: Bool
        /// The queue was empty when the monitor may stop: it stops until it is needed again.
        var stopped: Bool
        /// The pool was shut down: the monitor exits.
        var shutDown: Bool
    }

    /// The monitor looks. With `mayStop`, a look that finds the queue empty also stops the
    /// monitor (and says so): a later need wakes it again.
    mutating func monitorLooks(queuedEntries: Int, computing: Int, mayStop: Bool) -> MonitorLook {
        observe(queuedEntries: queuedEntries, computing: computing)
        let stopped = mayStop && queuedEntries == 0
        if stopped { monitorRequested = false }
        return MonitorLook(
            workWaits: workWaitsForASlot, slotWaits: slotWaitsForARunner, stopped: stopped, shutDown: isShutDown)
    }

    /// The monitor's thread exits: a later need starts a new one.
    mutating func monitorExited() {
        monitorExists = false
        monitorRequested = false
    }

    // MARK: The decisions

    private mutating func observe(queuedEntries: Int, computing: Int) {
        self.queuedEntries = queuedEntries
        self.computing = computing
    }

    /// Decides to start up to `limit` runners, idle workers first, then new threads up to the
    /// bound, and counts them as coming.
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

    /// Whether the monitor must start watching: work waits for a slot and it is not watching.
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
