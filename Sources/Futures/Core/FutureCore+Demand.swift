/// What a blocking reader does next about a future it found unresolved.
enum DemandOutcome: Equatable {
    /// The reader ran work, or someone else took it meanwhile: look at the future again.
    case lookAgain
    /// Park, looking again after the interval (or only when woken, if `nil`).
    case park(recheckAfter: Duration?)
}

extension _FutureCore {
    /// What a blocking reader does about this future, as `ReadStep` decides from the state word:
    /// - lazy: the reader runs the work on its thread;
    /// - background: the reader runs queued work when its context allows (`ContextScheduler`:
    ///   always from inside future work, so nested waits never starve; at top level when runners
    ///   stay within the cores) or when it outranks the context's threads (`PriorityBoost`); else
    ///   it parks and looks again after `recheckInterval`;
    /// - pinned or promise: the reader waits;
    /// - derived: the reader walks up to the work and demands it, connecting lazy links.
    ///
    /// `waited`: how long the reader has waited. `wakeUp` is left in the derived futures walked
    /// (`ParkedReaderWakeUp`).
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

    /// Starts the work without running it on this thread (`get()`, `result(timeout:)`): lazy work
    /// is queued on the global context unless a blocking reader claims it first; a derived future
    /// starts its sources so; the other kinds need nothing.
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

    /// Traps if this thread is running this future's work (the wait would never end), naming the
    /// cycle of futures whose work runs nested on this thread.
    final func trapIfRecursive(_ word: StateWord) {
        guard word.phase == .running, CurrentWork.contains(self) else { return }
        var message =
            "\(_description) created at \(_creationSite) was read from inside its own work, "
            + "which would wait forever; read it after its work returns, or split the work"
        let chain = ThreadState.current.running
        if let start = chain.firstIndex(where: { $0 === self }), start < chain.count - 1 {
            let steps = chain[start...].map { WaitCycle.Step(future: $0, link: .workOnThisThread) }
            message += ".\n" + WaitCycle(steps: steps, entry: nil).message
        }
        misuse(message)
    }
}
