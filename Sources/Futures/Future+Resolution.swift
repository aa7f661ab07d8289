import Foundation
public import Synchronization

/// What a blocking reader does when it finds the work unstarted.
enum PendingReadAction {
    /// The reader claimed and ran the work (or lost the race to someone who did): look again.
    case claimed
    /// Park, looking again after the interval (or only when woken, if `nil`).
    case park(recheckAfter: Duration?)
}

extension Future {
    // MARK: Claiming and running the work

    /// Moves the phase from `pending` to `running`, if nobody else did. The thread that wins
    /// owns `_work` from then on and must call `_runClaimedWork(isRunner:)`.
    ///
    /// The work stays in `_work` until it runs, so that the only reference to the closure is
    /// the one `_runClaimedWork` drops before resolving: a claimer that held its own copy (a
    /// local, or a capture in a dispatched block) would keep the closure's captures alive past
    /// the resolution that readers wake on.
    @inlinable
    final func _claim() -> Bool {
        var word = _state.load(ordering: .relaxed)
        while StateWord.phase(word) == StateWord.pending {
            let desired = (word & ~StateWord.phaseMask) | StateWord.running
            let (exchanged, original) = _state.compareExchange(
                expected: word, desired: desired, ordering: .acquiring)
            if exchanged { return true }
            word = original
        }
        return false
    }

    /// Runs the work this thread claimed, on this thread, and resolves the future with its
    /// outcome.
    ///
    /// The closure, and all it captured, is released before the future resolves, so a reader
    /// that wakes can rely on it being gone.
    @inlinable
    final func _runClaimedWork(isRunner: Bool) {
        _ = _runClaimedWorkForResult(isRunner: isRunner)
    }

    /// Runs the work this thread claimed, as `_runClaimedWork(isRunner:)` does.
    ///
    /// - Returns: The future's result: the work's outcome, or the cancellation that resolved
    ///   the future while the work ran.
    @inlinable
    final func _runClaimedWorkForResult(isRunner: Bool) -> Result<Value, Failure> {
        var work = _work
        _work = nil
        let result: Result<Value, Failure> = CurrentWork.run(self, isRunner: isRunner) {
            guard let body = work else { _missingWork() }
            do throws(Failure) {
                return .success(try body())
            } catch {
                return .failure(error)
            }
        }
        work = nil
        return _complete(with: result) ? result : _waitForResult()
    }

    @usableFromInline
    final func _missingWork() -> Never {
        preconditionFailure("\(_typeDescription) has no work to run")
    }

    /// Claims the work if unstarted and runs it on this thread. Returns whether it ran it.
    @discardableResult
    func _claimAndRun(isRunner: Bool) -> Bool {
        guard _claim() else { return false }
        _runClaimedWork(isRunner: isRunner)
        return true
    }

    // MARK: Resolving

    /// Resolves the future with `result` unless it is already resolved or being resolved.
    ///
    /// - Returns: `true` if this call resolved it.
    @inlinable
    @discardableResult
    final func _complete(with result: Result<Value, Failure>, cancelling: Bool = false) -> Bool {
        var word = _state.load(ordering: .relaxed)
        let previousPhase: UInt64
        while true {
            let phase = StateWord.phase(word)
            if phase >= StateWord.completing { return false }
            var desired = (word & ~StateWord.phaseMask) | StateWord.completing
            if cancelling { desired |= StateWord.cancelled }
            let (exchanged, original) = _state.compareExchange(
                expected: word, desired: desired, ordering: .acquiring)
            if exchanged {
                previousPhase = phase
                break
            }
            word = original
        }
        if previousPhase == StateWord.pending {
            _work = nil
            _didDropUnstartedWork()
        }
        _outcome = Outcome(result)
        // The phase is `completing` (2) and only this thread may move it: adding 1 makes it
        // `resolved` (3) and leaves the flags that others may set meanwhile, in one instruction
        // (an OR that returns the old value would be a compare-and-swap loop).
        let old = _state.wrappingAdd(StateWord.resolved - StateWord.completing, ordering: .acquiringAndReleasing).oldValue
        if old & (StateWord.waiters | StateWord.callbacks) != 0 {
            _announceResolution(previous: old)
        }
        return true
    }

    /// Wakes parked readers and runs the callbacks registered before resolution, outside the lock.
    @usableFromInline
    final func _announceResolution(previous word: UInt64) {
        let stripe = ParkingLot.shared.stripe(for: self)
        stripe.condition.lock()
        let callbacks =
            word & StateWord.callbacks != 0
            ? stripe.callbacks.removeValue(forKey: ObjectIdentifier(self)) : nil
        if word & StateWord.waiters != 0 { stripe.condition.broadcast() }
        stripe.condition.unlock()
        if let callbacks {
            CallbackTrampoline.deliver(callbacks, to: self)
        }
    }

    // MARK: Callbacks

    /// Calls `body` with the result once the future resolves: at once on this thread if it
    /// already has, otherwise on the thread that resolves it. Never starts work.
    func _whenResolved(_ body: @escaping @Sendable (Result<Value, Failure>) -> Void) {
        _onResolution { future in body(future._result) }
    }

    /// Calls `body` with this future once it resolves, as `_whenResolved` does.
    ///
    /// The registered callback does not capture the future: the parking lot hands it over at
    /// resolution, so a pending future with callbacks can still be freed.
    func _onResolution(_ body: @escaping @Sendable (Future<Value, Failure>) -> Void) {
        if isResolved {
            body(self)
            return
        }
        let stripe = ParkingLot.shared.stripe(for: self)
        stripe.condition.lock()
        var word = _state.load(ordering: .acquiring)
        while word & StateWord.callbacks == 0 {
            if StateWord.phase(word) == StateWord.resolved { break }
            let (exchanged, original) = _state.compareExchange(
                expected: word, desired: word | StateWord.callbacks, ordering: .acquiring)
            if exchanged { break }
            word = original
        }
        if StateWord.phase(word) == StateWord.resolved {
            stripe.condition.unlock()
            body(self)
            return
        }
        stripe.callbacks[ObjectIdentifier(self), default: []].append { object in
            body(unsafeDowncast(object, to: Future<Value, Failure>.self))
        }
        stripe.condition.unlock()
    }

    /// Drops the callbacks of a future that is freed before it resolves.
    func _discardParkedCallbacks() {
        let stripe = ParkingLot.shared.stripe(for: self)
        stripe.condition.lock()
        let dropped = stripe.callbacks.removeValue(forKey: ObjectIdentifier(self))
        stripe.condition.unlock()
        _ = dropped  // released here, outside the lock: their captures may run deinits
    }

    // MARK: Waiting

    /// Waits until the future resolves, claiming work as its kind allows.
    @usableFromInline
    func _waitForResult() -> Result<Value, Failure> {
        let start = ContinuousClock.now
        var firstLook = true
        var spun = false
        while true {
            let word = _state.load(ordering: .acquiring)
            switch StateWord.phase(word) {
            case StateWord.resolved:
                return _result
            case StateWord.pending:
                let waited = firstLook ? Duration.zero : ContinuousClock.now - start
                switch _pendingBlockingRead(firstLook: firstLook, waited: waited) {
                case .claimed:
                    continue
                case .park(let interval):
                    firstLook = false
                    CallbackTrampoline.drainQueued()
                    if isResolved { continue }
                    _park(until: interval.map { ContinuousClock.now + $0 })
                }
            default:
                _trapIfRecursive(word)
                CallbackTrampoline.drainQueued()
                if isResolved { continue }
                if !spun {
                    spun = true
                    if _spinUntilResolved() { continue }
                }
                _park(until: nil)
            }
        }
    }

    /// Watches a future whose work runs on another thread for a moment before parking: short
    /// work (the common case for a future read right after it was made) then resolves without
    /// this thread sleeping and being woken, the dearest step of a hand-off. Returns whether the
    /// future resolved meanwhile. Never on a single core, where the runner needs this one.
    private func _spinUntilResolved() -> Bool {
        guard Scheduler.cores > 1 else { return false }
        for _ in 0..<Self._spinLooks where isResolved { return true }
        return false
    }

    /// How many times `_spinUntilResolved` looks: a few microseconds.
    private static var _spinLooks: Int { 4_000 }

    /// Waits until the future resolves or `timeout` passes. Never claims work.
    func _waitForResult(timeout: Duration) -> Result<Value, Failure>? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let word = _state.load(ordering: .acquiring)
            if StateWord.phase(word) == StateWord.resolved { return _result }
            if ContinuousClock.now >= deadline { return nil }
            _trapIfRecursive(word)
            CallbackTrampoline.drainQueued()
            if isResolved { continue }
            _park(until: deadline)
        }
    }

    func _trapIfRecursive(_ word: UInt64) {
        guard StateWord.phase(word) == StateWord.running, CurrentWork.contains(self) else { return }
        misuse(
            "\(_typeDescription) created at \(_creationSite) was read from inside its own work, "
                + "which would wait forever; read it after its work returns, or split the work")
    }

    /// Wakes the threads parked on this future so that they look at it again.
    func _wakeWaiters() {
        guard _state.load(ordering: .acquiring) & StateWord.waiters != 0 else { return }
        let stripe = ParkingLot.shared.stripe(for: self)
        stripe.condition.lock()
        stripe.condition.broadcast()
        stripe.condition.unlock()
    }

    /// Parks this thread once: until the future resolves, a wake-up, or `deadline`.
    private func _park(until deadline: ContinuousClock.Instant?) {
        let stripe = ParkingLot.shared.stripe(for: self)
        stripe.condition.lock()
        defer { stripe.condition.unlock() }
        var word = _state.load(ordering: .acquiring)
        while word & StateWord.waiters == 0 {
            if StateWord.phase(word) == StateWord.resolved { return }
            let (exchanged, original) = _state.compareExchange(
                expected: word, desired: word | StateWord.waiters, ordering: .acquiring)
            if exchanged { break }
            word = original
        }
        if StateWord.phase(_state.load(ordering: .acquiring)) == StateWord.resolved { return }
        Scheduler.parkUncounted {
            if let deadline {
                let remaining = ContinuousClock.now.duration(to: deadline)
                guard remaining > .zero else { return }
                // NSCondition traps on a date beyond Int.max seconds after 1970, such as a timeout of
                // `.seconds(Int64.max)`; a longer wait is made of day-long ones (the callers loop).
                _ = stripe.condition.wait(until: Date(timeIntervalSinceNow: min(remaining.seconds, 86_400)))
            } else {
                stripe.condition.wait()
            }
        }
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}

extension Future: RunningWork {
    @usableFromInline
    var isCancelledWhileRunning: Bool {
        _state.load(ordering: .relaxed) & StateWord.cancelled != 0
    }
}
