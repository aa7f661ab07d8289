import Foundation

/// The monitor (after Go's `sysmon`, driven by CPU time): while work waits for a slot, it frees
/// the slots of runners that stopped computing and that the kernel says are not runnable; with
/// the queue empty it sleeps until a submit wakes it.
extension ThreadPool {
    func startMonitorThread() {
        let thread = Thread { [self] in
            nameCurrentThread("futures.monitor")
            monitorMain()
        }
        thread.qualityOfService = configuration.qualityOfService
        thread.start()
    }

    /// May be called under the pool's lock: the monitor never takes that lock holding
    /// `monitorCondition`.
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
        // Time no work has waited for a slot; stop after `stopAfter`.
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

    static let stopAfter = EngineTiming.monitorStopsAfterNanoseconds

    /// The shortest while a runner is suspect (so the deciding second look comes soon), else
    /// doubling up to 16 × shortest: frequent looks only take a core from computing work.
    static func nextInterval(after interval: UInt64, shortest: UInt64, suspects: Bool) -> UInt64 {
        suspects ? shortest : min(interval * 2, shortest * 16)
    }

    /// Marks blocked and computing runners; returns the new samples and whether any is suspect.
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
            // A lost signal costs a recheck, never a hang.
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
