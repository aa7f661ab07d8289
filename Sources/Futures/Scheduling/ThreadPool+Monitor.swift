import Foundation

/// The monitor: a thread per pool that, while work waits for a CPU slot, looks at the runners
/// every `monitorInterval` and frees the slots of those that block.
///
/// A runner that used less than a quarter of a core in each of the last two intervals may be
/// blocked, or only waiting for a core on a busy machine; the monitor asks the kernel which
/// (`ThreadProbe`), and stops counting it as computing only if it is not runnable. One that it
/// stopped counting and that uses half a core or more again is counted again. It looks only
/// while work waits for a slot, sleeps between looks, and once the queue is empty sleeps until
/// a submit asks for it, so an idle pool costs nothing.
///
/// This is the idea of Go's `sysmon`, which hands a blocked thread's processor to another, and of
/// .NET's starvation detection, driven by thread CPU time instead of a fixed delay: CPU-bound
/// work is never seen as blocked, so it keeps one runner per core.
extension ThreadPool {
    func startMonitorThread() {
        let thread = Thread { [self] in
            nameCurrentThread("futures.monitor")
            monitorMain()
        }
        thread.qualityOfService = configuration.qualityOfService
        thread.start()
    }

    /// Wakes the monitor, whether it sleeps between looks or until it is needed. May be called
    /// holding the pool's lock: the monitor never holds `monitorCondition` while it takes that lock.
    func wakeMonitor() {
        monitorCondition.lock()
        monitorWakeUps += 1
        monitorCondition.signal()
        monitorCondition.unlock()
    }

    private func monitorMain() {
        let shortest = configuration.monitorInterval.nanoseconds
        var interval = shortest
        var samples: [ObjectIdentifier: RunnerSample] = [:]
        // How long no work has waited for a slot; the monitor stops only after `stopAfter` of it.
        var quiet: UInt64 = 0
        while true {
            let (running, look) = lookForMonitor(mayStop: quiet >= Self.stopAfter)
            if look.shutDown {
                monitorDidExit()
                return
            }
            if look.stopped {
                samples.removeAll()
                interval = shortest
                quiet = 0
                sleepUntilWoken()
                continue
            }
            var suspects = false
            if look.workWaits {
                quiet = 0
                (samples, suspects) = judge(
                    running, since: samples, at: monotonicNanoseconds(), minimumInterval: shortest / 2)
                startRunnersForMonitor()
            } else {
                // A slot freed without a start (a reader's run that raced a submit): take it up.
                if look.slotWaits { startRunnersForMonitor() }
                quiet &+= interval
                samples.removeAll()
            }
            interval = Self.nextInterval(after: interval, shortest: shortest, suspects: suspects)
            sleep(nanoseconds: interval)
        }
    }

    /// How long the monitor goes on looking, at its longest interval, after work last waited for
    /// a slot, before it stops: a program that hands the pool batches of work one after another
    /// would otherwise wake it (a system call and a thread switch) for each batch.
    static let stopAfter = EngineTiming.monitorStopsAfterNanoseconds

    /// The wait before the next look: the shortest while a runner looks blocked (so that the
    /// second look, which decides, comes soon) or runs long jobs that hardly compute
    /// (`RunnerSample.ranLongIdleJobs(since:)`), otherwise twice the last, up to 16 times the
    /// shortest. Work that computes keeps every runner busy and the queue full for long, and a
    /// look every millisecond then only takes a core from it.
    static func nextInterval(after interval: UInt64, shortest: UInt64, suspects: Bool) -> UInt64 {
        suspects ? shortest : min(interval * 2, shortest * 16)
    }

    /// Looks at each running worker once, stops counting those that block and counts again
    /// those that compute; returns the new looks, and whether a runner is worth a look again soon
    /// (it looks idle, or ran long idle jobs since the last look). `now` is the time of this look.
    private func judge(
        _ running: [WorkerRecord], since samples: [ObjectIdentifier: RunnerSample], at now: UInt64,
        minimumInterval: UInt64
    ) -> (samples: [ObjectIdentifier: RunnerSample], suspects: Bool) {
        var next: [ObjectIdentifier: RunnerSample] = [:]
        var suspects = false
        for worker in running {
            guard let cpu = worker.probe.cpuNanoseconds() else { continue }
            var sample = RunnerSample(job: worker.jobNumber, cpuNanoseconds: cpu, wallNanoseconds: now)
            if let previous = samples[ObjectIdentifier(worker)] {
                if sample.ranLongIdleJobs(since: previous) { suspects = true }
                let (verdict, judged) = sample.judged(since: previous, minimumInterval: minimumInterval)
                sample = judged
                if sample.idleLooks > 0 { suspects = true }
                switch verdict {
                case .mayBeBlocked:
                    if worker.currentState == .computing, worker.probe.isRunnable() != true, worker.markBlocked() {
                        blockedVerdicts.wrappingAdd(1, ordering: .relaxed)
                    }
                case .computing:
                    worker.markComputing()
                case .unknown:
                    break
                }
            }
            next[ObjectIdentifier(worker)] = sample
        }
        return (next, suspects)
    }

    private func sleepUntilWoken() {
        monitorCondition.lock()
        while monitorWakeUps == 0 {
            // Looked at again after a while: a lost signal costs a recheck, never a hang.
            _ = monitorCondition.wait(until: Date(timeIntervalSinceNow: EngineTiming.lostWakeUpRecheck.seconds))
        }
        monitorWakeUps = 0
        monitorCondition.unlock()
    }

    private func sleep(nanoseconds: UInt64) {
        monitorCondition.lock()
        if monitorWakeUps == 0 {
            _ = monitorCondition.wait(until: Date(timeIntervalSinceNow: Double(nanoseconds) / 1e9))
        }
        monitorWakeUps = 0
        monitorCondition.unlock()
    }
}
