import Testing

@testable import Futures

/// A thread pool's state machine, without threads: each transition and the actions it returns
/// (wake idle workers, spawn threads, start or wake the monitor), as `StateWordTests` tests the
/// future's word.
struct PoolStateTests {
    typealias Actions = PoolState.Actions

    static func state(cpuSlots: Int = 2, maxThreads: Int = 8, keptThreads: Int = 2, watches: Bool = true)
        -> PoolState
    {
        PoolState(
            cpuSlots: cpuSlots, maxThreads: maxThreads, keptThreads: keptThreads, detectsBlocking: true,
            watchesWhenIdle: watches)
    }

    /// A state whose pool has `threads` workers, each spawned for a job while none computes, and
    /// started; with `idle`, all of them then wait for a wake-up.
    static func pool(threads: Int, idle: Bool, cpuSlots: Int = 2, maxThreads: Int = 8) -> PoolState {
        var state = Self.state(cpuSlots: cpuSlots, maxThreads: maxThreads)
        for _ in 0..<threads {
            let result1 = state.slotFreed(queuedEntries: 1, computing: 0)
            #expect(result1 == Actions(spawn: 1))
            state.workerStarted()
        }
        if idle {
            for _ in 0..<threads { _ = state.idleWaitBegan() }
        }
        #expect(state.threads == threads && state.starting == 0 && state.idle == (idle ? threads : 0))
        return state
    }

    @Test("the first job spawns one runner; a burst never spawns more runners than slots, and asks the monitor once")
    func burstOfSubmits() {
        var state = Self.state()
        let result2 = state.jobSubmitted(queuedEntries: 1, computing: 0)
        #expect(result2 == Actions(spawn: 1))
        let result3 = state.jobSubmitted(queuedEntries: 2, computing: 0)
        #expect(result3 == Actions(spawn: 1))
        // Both slots have a runner on its way: the third job waits for a slot, and the monitor is
        // started to watch for blocked runners.
        let result4 = state.jobSubmitted(queuedEntries: 3, computing: 0)
        #expect(result4 == Actions(monitor: .start))
        for entries in 4...100 {
            let result5 = state.jobSubmitted(queuedEntries: entries, computing: 0)
            #expect(result5 == Actions())
        }
        #expect(state.threads == 2 && state.starting == 2 && state.monitorRequested)
    }

    @Test("a worker that takes a job starts up to two more runners")
    func takerStartsTwo() {
        var state = Self.state(cpuSlots: 4)
        let result6 = state.jobSubmitted(queuedEntries: 1, computing: 0)
        #expect(result6 == Actions(spawn: 1))
        state.workerStarted()
        let result7 = state.workerTookJob(queuedEntries: 5, computing: 1)
        #expect(result7 == Actions(spawn: 2))
        #expect(state.threads == 3 && state.starting == 2)
    }

    @Test("a wake-up token is the chosen worker's alone: an idle worker without one keeps waiting")
    func tokensAreSentToAWorker() {
        var state = Self.pool(threads: 3, idle: true, cpuSlots: 4)
        #expect(state.idleWithoutToken == 3)
        let result = state.jobSubmitted(queuedEntries: 1, computing: 0)
        #expect(result == Actions(wake: 1))
        #expect(state.wakeTokens == 1 && state.idleWithoutToken == 2)
        // The two workers the token was not sent to go on waiting, though a token is out: with
        // one condition shared by every worker, whichever woke took it (see `PoolWakeUp`).
        #expect(state.idleWorkerKeepsWaiting(hasToken: false, queuedEntries: 1, computing: 0))
        #expect(!state.idleWorkerKeepsWaiting(hasToken: true, queuedEntries: 1, computing: 0))
        // One of them times out meanwhile: it is not the coming runner, the token stays out.
        let timedOut = state.idleWaitEnded(queuedEntries: 1, tookToken: false)
        #expect(timedOut == .work)
        #expect(state.wakeTokens == 1 && state.idleWithoutToken == 1)
        let woken = state.idleWaitEnded(queuedEntries: 1, tookToken: true)
        #expect(woken == .work)
        #expect(state.wakeTokens == 0 && state.idle == 1 && state.idleWithoutToken == 1)
    }

    @Test("idle workers are woken before threads are spawned, and each wake-up is counted once")
    func wakeBeforeSpawn() {
        var state = Self.pool(threads: 2, idle: true, cpuSlots: 4)
        let result8 = state.monitorFreedSlots(queuedEntries: 10, computing: 0)
        #expect(result8 == Actions(wake: 2, spawn: 2))
        #expect(state.wakeTokens == 2 && state.starting == 2 && state.threads == 4)
        let result9 = state.monitorFreedSlots(queuedEntries: 10, computing: 0)
        #expect(result9 == Actions())
        // Each woken worker takes the token sent to it.
        let result10 = state.idleWaitEnded(queuedEntries: 10, tookToken: true)
        #expect(result10 == .work)
        let result11 = state.idleWaitEnded(queuedEntries: 10, tookToken: true)
        #expect(result11 == .work)
        #expect(state.wakeTokens == 0 && state.idle == 0)
    }

    @Test("no runner starts while every slot computes, and the monitor is then wanted")
    func slotsFull() {
        var state = Self.pool(threads: 2, idle: false)
        let result12 = state.jobSubmitted(queuedEntries: 5, computing: 2)
        #expect(result12 == Actions(monitor: .start))
        #expect(state.runnersWanted == 0 && state.workWaitsForASlot)
        let look = state.monitorLooks(queuedEntries: 0, computing: 2, mayStop: false)
        #expect(!look.workWaits && !look.slotWaits && !look.stopped && !look.shutDown)
    }

    @Test("when the monitor frees slots of blocked runners, new threads start up to the bound, no further")
    func boundHolds() {
        var state = Self.pool(threads: 7, idle: false, cpuSlots: 2, maxThreads: 8)
        let result13 = state.monitorFreedSlots(queuedEntries: 1_000, computing: 0)
        #expect(result13 == Actions(spawn: 1))
        #expect(state.threads == 8)
        state.workerStarted()
        let result14 = state.monitorFreedSlots(queuedEntries: 1_000, computing: 0)
        #expect(result14 == Actions())
    }

    @Test("a freed slot beside queued work with no runner coming is one the monitor must fill; not when a runner comes")
    func slotWaitsForARunner() {
        var state = Self.pool(threads: 1, idle: true, cpuSlots: 1)
        // The slot is taken: work waits for it, and no runner is wanted.
        var look = state.monitorLooks(queuedEntries: 1, computing: 1, mayStop: false)
        #expect(look.workWaits && !look.slotWaits)
        // The reader's run ends: the slot is free and nobody comes.
        look = state.monitorLooks(queuedEntries: 1, computing: 0, mayStop: false)
        #expect(!look.workWaits && look.slotWaits)
        let result15 = state.monitorFreedSlots(queuedEntries: 1, computing: 0)
        #expect(result15 == Actions(wake: 1))
        // The woken worker is on its way: nothing more to do.
        let result16 = state.monitorLooks(queuedEntries: 1, computing: 0, mayStop: false)
        #expect(!result16.slotWaits)
    }

    @Test("a counted runner's freed slot starts one runner for unclaimed work")
    func slotFreed() {
        var state = Self.pool(threads: 2, idle: true)
        let result17 = state.slotFreed(queuedEntries: 3, computing: 1)
        #expect(result17 == Actions(wake: 1))
        let result18 = state.slotFreed(queuedEntries: 3, computing: 1)
        #expect(result18 == Actions())
    }

    @Test("one worker at a time watches the empty queue, and counts as a coming runner while it does")
    func watching() {
        var state = Self.pool(threads: 2, idle: false)
        let result19 = state.workerFoundNoJob(queuedEntries: 0, computing: 0, watched: false)
        #expect(result19 == .watch)
        #expect(state.spinning == 1)
        // A second worker waits instead; so does the watcher once it watched in vain.
        let result20 = state.workerFoundNoJob(queuedEntries: 0, computing: 0, watched: false)
        #expect(result20 == .wait(Actions()))
        // One job needs no other runner than the watcher; a second one does.
        let result21 = state.jobSubmitted(queuedEntries: 1, computing: 0)
        #expect(result21 == Actions())
        let result22 = state.jobSubmitted(queuedEntries: 2, computing: 0)
        #expect(result22 == Actions(spawn: 1))
        state.watchEnded()
        #expect(state.spinning == 0)
        let result23 = state.workerFoundNoJob(queuedEntries: 0, computing: 0, watched: true)
        #expect(result23 == .wait(Actions()))
        // A pool that does not watch (one core) never does.
        var single = Self.state(watches: false)
        let result24 = single.workerFoundNoJob(queuedEntries: 0, computing: 0, watched: false)
        #expect(result24 == .wait(Actions()))
    }

    @Test("a worker takes the next job only into a free slot, or into its own when it ends a computing job")
    func mayTakeJob() {
        let state = Self.state(cpuSlots: 2)
        #expect(state.workerMayTakeJob(queuedEntries: 1, computing: 1, holdsASlot: false))
        #expect(!state.workerMayTakeJob(queuedEntries: 1, computing: 2, holdsASlot: false))
        #expect(state.workerMayTakeJob(queuedEntries: 1, computing: 2, holdsASlot: true))
        #expect(!state.workerMayTakeJob(queuedEntries: 1, computing: 3, holdsASlot: true))
        #expect(!state.workerMayTakeJob(queuedEntries: 0, computing: 0, holdsASlot: false))
    }

    @Test("a worker that finds work but no slot waits, and asks the monitor to watch")
    func noSlotAsksTheMonitor() {
        var state = Self.pool(threads: 2, idle: false)
        let result25 = state.workerFoundNoJob(queuedEntries: 1, computing: 2, watched: false)
        #expect(result25 == .wait(Actions(monitor: .start)))
        let result26 = state.workerFoundNoJob(queuedEntries: 1, computing: 2, watched: false)
        #expect(result26 == .wait(Actions()))
    }

    @Test("the monitor starts once, stops on an empty queue, is woken on the next need, restarts after it exits")
    func monitorLifecycle() {
        var state = Self.pool(threads: 2, idle: false)
        let result27 = state.jobSubmitted(queuedEntries: 3, computing: 2)
        #expect(result27.monitor == .start)
        let result28 = state.jobSubmitted(queuedEntries: 4, computing: 2)
        #expect(result28.monitor == .nothing)
        // Work still queued: it may not stop.
        let result29 = state.monitorLooks(queuedEntries: 4, computing: 2, mayStop: true)
        #expect(!result29.stopped)
        let result30 = state.monitorLooks(queuedEntries: 0, computing: 2, mayStop: true)
        #expect(result30.stopped)
        #expect(!state.monitorRequested && state.monitorExists)
        let result31 = state.jobSubmitted(queuedEntries: 3, computing: 2)
        #expect(result31.monitor == .wake)
        state.monitorExited()
        #expect(!state.monitorExists)
        let result32 = state.jobSubmitted(queuedEntries: 3, computing: 2)
        #expect(result32.monitor == .start)
    }

    @Test("a pool without blocking detection never asks for a monitor")
    func noDetection() {
        var state = PoolState(cpuSlots: 2, maxThreads: 2, keptThreads: 2, detectsBlocking: false, watchesWhenIdle: true)
        let result33 = state.jobSubmitted(queuedEntries: 1, computing: 2)
        #expect(result33 == Actions())
        #expect(!state.monitorExists && !state.monitorRequested)
    }

    @Test("an idle worker waits for a token; an extra one retires when its wait ends on an empty queue")
    func idleWaits() {
        var state = Self.pool(threads: 3, idle: false)
        let result34 = state.idleWaitBegan()
        #expect(result34)  // 3 threads, 2 kept: it may retire
        #expect(state.idleWorkerKeepsWaiting(hasToken: false, queuedEntries: 0, computing: 0))
        let result35 = state.idleWaitEnded(queuedEntries: 0, tookToken: false)
        #expect(result35 == .retire)
        state.workerExited()
        let result36 = state.idleWaitBegan()
        #expect(!result36)  // 2 threads, both kept
        // A kept worker whose wait ends without a token looks for work.
        let result37 = state.idleWaitEnded(queuedEntries: 0, tookToken: false)
        #expect(result37 == .work)
        #expect(state.idle == 0 && state.threads == 2)
    }

    @Test("after a shutdown, workers run what is left, then exit; the monitor is not asked again")
    func shutDown() {
        var state = Self.pool(threads: 2, idle: true)
        state.shutDown()
        // Work left, no free slot: the waiters go on waiting rather than spin.
        #expect(state.idleWorkerKeepsWaiting(hasToken: false, queuedEntries: 1, computing: 2))
        // A free slot, or nothing left: they leave the wait.
        #expect(!state.idleWorkerKeepsWaiting(hasToken: false, queuedEntries: 1, computing: 1))
        #expect(!state.idleWorkerKeepsWaiting(hasToken: false, queuedEntries: 0, computing: 2))
        let result38 = state.idleWaitEnded(queuedEntries: 1, tookToken: false)
        #expect(result38 == .work)
        let result39 = state.idleWaitEnded(queuedEntries: 0, tookToken: false)
        #expect(result39 == .retire)
        let result40 = state.workerFoundNoJob(queuedEntries: 0, computing: 0, watched: false)
        #expect(result40 == .exit)
        let result41 = state.workerFoundNoJob(queuedEntries: 1, computing: 2, watched: false)
        #expect(result41 == .wait(Actions()))
        let result42 = state.monitorLooks(queuedEntries: 0, computing: 0, mayStop: false)
        #expect(result42.shutDown)
    }
}
