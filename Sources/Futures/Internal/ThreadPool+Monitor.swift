import Foundation

/// The monitor: a thread per pool that, while work waits for a CPU slot, looks at the runners
/// every `monitorInterval` and frees the slots of those that block.
///
/// A runner that used less than a quarter of a core in each of the last two intervals may be
/// blocked, or only waiting for a core on a busy machine; the monitor asks the kernel which
/// (`ThreadProbe`), and stops counting it as computing only if it is not runnable. One that it stopped counting and
/// that uses half a core or more again is counted again. Between looks it sleeps, and when no
/// work waits for a slot it sleeps until a submit asks for it, so an idle pool costs nothing.
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
        let interval = configuration.monitorInterval.nanoseconds
        var samples: [ObjectIdentifier: RunnerSample] = [:]
        while true {
            let look = lookForMonitor()
            if look.shutDown {
                monitorDidExit()
                return
            }
            guard look.workWaits else {
                samples.removeAll()
                sleepUntilWoken()
                continue
            }
            samples = judge(look.running, since: samples, minimumInterval: interval / 2)
            startRunnersForMonitor()
            sleep(nanoseconds: interval)
        }
    }

    /// Looks at each running worker once, stops counting those that block and counts again
    /// those that compute; returns the new looks.
    private func judge(
        _ running: [WorkerRecord], since samples: [ObjectIdentifier: RunnerSample], minimumInterval: UInt64
    ) -> [ObjectIdentifier: RunnerSample] {
        let now = monotonicNanoseconds()
        var next: [ObjectIdentifier: RunnerSample] = [:]
        for worker in running {
            guard let cpu = worker.probe.cpuNanoseconds() else { continue }
            var sample = RunnerSample(job: worker.jobNumber, cpuNanoseconds: cpu, wallNanoseconds: now)
            if let previous = samples[ObjectIdentifier(worker)] {
                let (verdict, judged) = sample.judged(since: previous, minimumInterval: minimumInterval)
                sample = judged
                switch verdict {
                case .mayBeBlocked:
                    if worker.currentState == .computing, worker.probe.isRunnable() != true {
                        _ = worker.markBlocked()
                    }
                case .computing:
                    worker.markComputing()
                case .unknown:
                    break
                }
            }
            next[ObjectIdentifier(worker)] = sample
        }
        return next
    }

    private func sleepUntilWoken() {
        monitorCondition.lock()
        while monitorWakeUps == 0 { monitorCondition.wait() }
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
