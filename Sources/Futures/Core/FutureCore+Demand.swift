/// What a blocking reader does next about a future it found unresolved.
enum DemandOutcome: Equatable {
    /// The reader ran work, or someone else took it meanwhile: look at the future again.
    case lookAgain
    /// Park, looking again after the interval (or only when woken, if `nil`).
    case park(recheckAfter: Duration?)
}

extension _FutureCore {
    /// What a blocking reader does about this future: the step `ReadStep` decides from the
    /// state word (run the work itself, follow a derived future's links to its sources, or wait),
    /// carried out.
    ///
    /// - A lazy future's work is run by the reader, on its thread.
    /// - A background future's queued work is run by the reader when its context's rule allows
    ///   it (`ContextScheduler`: always from inside future work, so that nested waits never
    ///   starve; at top level when that keeps the runners within the cores), or when the reader's
    ///   QoS outranks the context's threads (`PriorityBoost`); otherwise the reader parks and
    ///   looks again after `ContextScheduler.recheckInterval`.
    /// - A pinned future's work runs only on its context, and a promise has no work: the reader
    ///   waits.
    /// - A derived future has no work: the reader walks up to the futures with work and demands
    ///   each of them, connecting lazy derived futures on the way.
    ///
    /// `waited` is how long the reader has already waited for this future. `wakeUp`, from a
    /// reader of a derived future that parked before, is left in the derived futures the walk
    /// passes, so that a change of their sources wakes the reader (`ParkedReaderWakeUp`).
    final func demand(firstLook: Bool, waited: Duration, wakeUp: ParkedReaderWakeUp? = nil) -> DemandOutcome {
        let word = _word
        switch ReadStep(word) {
        case .readOutcome:
            return .lookAgain
        case .waitForRunner:
            trapIfRecursive(word)
            return .park(recheckAfter: nil)
        case .claimAndRun:
            if _claim() { _runClaimedWorkErased() }
            return .lookAgain
        case .askContext:
            guard let scheduler = _contextScheduler else { return .park(recheckAfter: nil) }
            // A reader that outranks the context's threads runs the work at its own QoS instead of
            // waiting for theirs (`PriorityBoost`; never on Linux, which has no QoS).
            let mayClaim =
                (firstLook ? scheduler.readerShouldClaimAtOnce() : scheduler.readerShouldClaim(afterWaiting: waited))
                || PriorityBoost.claimsQueuedWork(waiter: .current, runners: scheduler.runnerQoS)
            guard mayClaim else { return .park(recheckAfter: ContextScheduler.recheckInterval) }
            if _claim() { scheduler.runCounted { _runClaimedWorkErased() } }
            return .lookAgain
        case .wait:
            return .park(recheckAfter: nil)
        case .walkUpstream:
            var ranWork = false
            var recheck: Duration?
            walkUpstream(from: self, withoutBlocking: false, wakeUp: wakeUp, stop: { _isResolved }) { root in
                switch root.demand(firstLook: firstLook, waited: waited) {
                case .lookAgain:
                    ranWork = true
                case .park(let interval?):
                    recheck = min(recheck ?? interval, interval)
                case .park(nil):
                    break
                }
            }
            return ranWork ? .lookAgain : .park(recheckAfter: recheck)
        }
    }

    /// Starts the future's work without running it on this thread, for readers that must not
    /// block: `get()` and `result(timeout:)`.
    ///
    /// Lazy work is queued on the global context, where it runs unless a blocking reader claims
    /// it first; a derived future starts its sources so. Background, pinned and promise futures
    /// need nothing.
    final func startWithoutBlocking() {
        switch ReadStep(_word) {
        case .claimAndRun:
            // A closure job: a lazy future's claim does not count it out of `unclaimed` as a
            // background future's does.
            ExecutionContext.global().execute { [self] in
                if _claim() { _runClaimedWorkErased() }
            }
        case .walkUpstream:
            walkUpstream(from: self, withoutBlocking: true) { $0.startWithoutBlocking() }
        case .readOutcome, .waitForRunner, .askContext, .wait:
            break
        }
    }

    /// Traps if this thread is running this future's work: waiting for it would never end.
    ///
    /// When other futures' work runs on this thread inside this one's (its work read them, and
    /// this thread ran them), the message goes on to name that cycle, future by future.
    final func trapIfRecursive(_ word: StateWord) {
        guard word.phase == .running, CurrentWork.contains(self) else { return }
        var message =
            "\(_description) created at \(_creationSite) was read from inside its own work, "
            + "which would wait forever; read it after its work returns, or split the work"
        let chain = ThreadState.current.running.map { $0.takeUnretainedValue() }
        if let start = chain.firstIndex(where: { $0 === self }), start < chain.count - 1 {
            let steps = chain[start...].map { WaitCycle.Step(future: $0, link: .workOnThisThread) }
            message += ".\n" + WaitCycle(steps: steps, entry: nil).message
        }
        misuse(message)
    }
}
