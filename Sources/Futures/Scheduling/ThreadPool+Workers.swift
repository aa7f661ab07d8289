import Foundation

/// A pool's workers: each runs jobs while `PoolState` lets it, watches the empty queue a moment,
/// or waits idle for a wake-up token sent to it alone.
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

    /// The worker's loop: each turn asks `state` what to do and does it. Called and returns with
    /// `lock` held.
    private func runJobs(record: WorkerRecord, waiter: IdleWaiter) {
        // Whether this worker has just watched the queue, in vain: it waits next instead.
        var watched = false
        // Whether the worker has just ended a job and is still in that job's state.
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
                // The worker is counted by its record (`beginJob`), so a reader's claim inside the
                // job does not count it again (`ContextScheduler.beginCountedRun`).
                // Moved out, not copied: a copy retained the future and its run closure, and
                // released both after the run, on objects the submitting thread had just written.
                // Released at the end of this `if`, before the worker takes the lock again: a
                // future's deinit may run arbitrary code, even code that submits work here.
                if let job = job.take() { record.run(job) }
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
            switch state.workerFoundNoJob(queuedEntries: jobs.count, computing: counts.computingNow, watched: watched) {
            case .exit:
                // Workers that wait for a slot after the shutdown look again, and exit too.
                wakeEveryIdleWorker()
                return
            case .watch:
                lock.unlock()
                watchForWork()
                lock.lock()
                state.watchEnded()
                watched = true
            case .wait(let actions):
                // Only the monitor to start or wake, done under the lock (as `wakeMonitor()`
                // allows), so that the worker goes idle with no gap in which a slot freed by
                // someone else would spawn a thread instead of waking it.
                applyUnderLock(actions)
                apply(actions)
                if waitForWakeUp(waiter) == .retire { return }
                watched = false
            }
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

    /// How often a watching worker looks.
    fileprivate static let pollNanoseconds = EngineTiming.workerPollNanoseconds

    /// Waits idle until a wake-up token is sent to this worker (`waiter`); an extra thread gives up
    /// after `idleTimeout` without one and retires. Called and returns with `lock` held.
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
            // Even a kept thread, which never retires, looks again after `lostWakeUpRecheck`: a
            // signal the platform loses then costs that long, never a hang (`LostWakeUps`).
            let wait = min(retireAt - now, recheck)
            if !lock.wait(for: waiter.wakeUp, until: .after(.nanoseconds(wait))), waiter.hasToken {
                LostWakeUps.noteTokenFoundByRecheck(
                    pool: configuration.label, sentNanosecondsAgo: monotonicNanoseconds() &- waiter.tokenSentAt)
            }
        }
        // A token sent as the wait timed out is taken all the same: the decision that sent it
        // counts this worker as coming.
        let tookToken = waiter.hasToken
        if tookToken {
            waiter.hasToken = false
        } else if let index = idleWaiters.lastIndex(where: { $0 === waiter }) {
            idleWaiters.remove(at: index)
        }
        return state.idleWaitEnded(queuedEntries: jobs.count, tookToken: tookToken)
    }
}
