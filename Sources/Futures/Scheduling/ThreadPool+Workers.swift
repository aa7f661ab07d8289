import Foundation

/// Workers run jobs while `PoolState` lets them, watch the empty queue, or wait for a token.
extension ThreadPool {
    func spawnWorker() {
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
        let threadState = ThreadState.current
        threadState.worker = record
        let waiter = IdleWaiter()
        lock.lock()
        workers.append(record)
        state.workerStarted()
        runJobs(record: record, waiter: waiter)
        workers.removeAll { $0 === record }
        state.workerExited()
        threadCount.store(state.threads, ordering: .relaxed)
        lock.unlock()
        threadState.worker = nil
    }

    /// Each turn asks `state` what to do. Called and returns with `lock` held.
    private func runJobs(record: WorkerRecord, waiter: IdleWaiter) {
        var watched = false  // in vain: wait next
        var endingJob = false
        while true {
            let holdsASlot = endingJob && record.currentState == .computing
            if state.workerMayTakeJob(
                queuedEntries: jobs.count, computing: counts.computingNow, holdsASlot: holdsASlot)
            {
                var job = jobs.pop()
                // A future's job leaves `unclaimed` when its work leaves `pending`; a closure, now.
                if job?.isClosure == true { counts.jobLeftTheQueue() }
                if endingJob { record.nextJob() } else { record.beginJob() }
                endingJob = false
                let actions = state.workerTookJob(queuedEntries: jobs.count, computing: counts.computingNow)
                applyUnderLock(actions)
                lock.unlock()
                apply(actions)
                // Counted by its record, so a claim inside the job does not count it again.
                // Moved out, not copied (no retain/release on lines the submitter just wrote), and
                // released before the lock is retaken: a deinit may submit work here.
                if let job = job.take() { record.run(job) }
                // The job ends under the lock, so no decision sees its slot free while this worker
                // is neither computing nor coming; a waiting job inherits its state.
                lock.lock()
                endingJob = true
                watched = false
                continue
            }
            if endingJob {
                record.endJob()
                endingJob = false
            }
            switch state.workerFoundNoJob(queuedEntries: jobs.count, computing: counts.computingNow, watched: watched) {
            case .exit:
                // Workers waiting for a slot after shutdown look again, and exit too.
                wakeEveryIdleWorker()
                return
            case .watch:
                lock.unlock()
                watchForWork()
                lock.lock()
                state.watchEnded()
                watched = true
            case .wait(let actions):
                // Only the monitor, under the lock (`wakeMonitor()` allows it), so no freed slot
                // spawns a thread in a gap before this worker goes idle.
                applyUnderLock(actions)
                apply(actions)
                if waitForWakeUp(waiter) == .retire { return }
                watched = false
            }
        }
    }

    /// Returns when work stays unclaimed across two looks, or `spinNanoseconds` after the last
    /// submit. Readers usually claim their own work (`readerClaimed`): the watcher takes the lock
    /// only for work left to it, and no submit pays to wake it.
    private func watchForWork() {
        var now = monotonicNanoseconds()
        var deadline = now &+ Self.spinNanoseconds
        var lastSubmit = submits.load()
        var sawWork = false
        while now < deadline {
            // One look per `pollNanoseconds`: each pulls cache lines the submitter must take back.
            let nextLook = now &+ Self.pollNanoseconds
            while now < nextLook { now = monotonicNanoseconds() }
            if counts.unclaimedNow > 0 {
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

    fileprivate static let pollNanoseconds = EngineTiming.workerPollNanoseconds

    /// Waits for a token; an extra thread retires after `idleTimeout`. Lock held on entry and exit.
    private func waitForWakeUp(_ waiter: IdleWaiter) -> PoolState.WakeUp {
        let mayRetire = state.idleWaitBegan()
        idleWaiters.append(waiter)
        assert(idleWaiters.count == state.idleWithoutToken, "idle waiters and PoolState disagree")
        let retireAt: UInt64
        if mayRetire {
            let (sum, overflow) = monotonicNanoseconds().addingReportingOverflow(configuration.idleTimeout.nanoseconds)
            retireAt = overflow ? .max : sum
        } else {
            retireAt = .max
        }
        let recheck = EngineTiming.lostWakeUpRecheck.nanoseconds
        while state.idleWorkerKeepsWaiting(
            hasToken: waiter.hasToken, queuedEntries: jobs.count, computing: counts.computingNow)
        {
            let now = monotonicNanoseconds()
            guard now < retireAt else { break }
            // Rechecks even for kept threads: a lost signal costs a delay, never a hang.
            let wait = min(retireAt - now, recheck)
            if !lock.wait(for: waiter.wakeUp, until: .after(.nanoseconds(wait))), waiter.hasToken {
                LostWakeUps.noteTokenFoundByRecheck(
                    pool: configuration.label, sentNanosecondsAgo: monotonicNanoseconds() &- waiter.tokenSentAt)
            }
        }
        // A token sent as the wait timed out is taken: its decision counts this worker as coming.
        let tookToken = waiter.hasToken
        if tookToken {
            waiter.hasToken = false
        } else if let index = idleWaiters.lastIndex(where: { $0 === waiter }) {
            idleWaiters.remove(at: index)
        }
        return state.idleWaitEnded(queuedEntries: jobs.count, tookToken: tookToken)
    }
}
