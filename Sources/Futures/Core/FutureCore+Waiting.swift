import Foundation

extension _FutureCore {
    /// Waits until the future resolves, running or claiming work as its kind allows
    /// (`demand(firstLook:waited:)`).
    @usableFromInline
    final func _waitUntilResolved() {
        var start: ContinuousClock.Instant?
        var firstLook = true
        var spun = false
        var watch = BlockingWaitWatch()
        // Made when a reader of a derived future is about to park for the first time: from then
        // on its walks leave it in the derived futures above, to be woken when their sources
        // change (see `ParkedReaderWakeUp`). A read that never parks pays nothing for it.
        var wakeUp: ParkedReaderWakeUp?
        defer { wakeUp?.finish() }
        while true {
            let word = _word
            switch word.phase {
            case .resolved:
                return
            case .pending:
                let waited = start.map { ContinuousClock.now - $0 } ?? .zero
                wakeUp?.reset()
                switch demand(firstLook: firstLook, waited: waited, wakeUp: wakeUp) {
                case .lookAgain:
                    continue
                case .park(let interval):
                    if wakeUp == nil, word.kind.isDerived {
                        // Walk again, leaving the wake-up on the way, before the first park: a
                        // source that changed after the walk above would otherwise go unseen.
                        wakeUp = ParkedReaderWakeUp(parkingOn: self)
                        continue
                    }
                    if firstLook {
                        firstLook = false
                        start = ContinuousClock.now
                    }
                    CallbackTrampoline.runQueued()
                    if _isResolved { continue }
                    // Queued work that runners will reach soon, or a derived future whose source
                    // runs elsewhere: watch it for a moment too, as for running work, before
                    // paying for a sleep and a wake-up.
                    if !spun {
                        spun = true
                        if spinUntilResolved() { continue }
                    }
                    park(until: interval.map { ContinuousClock.now + $0 }, watch: &watch, wakeUp: wakeUp)
                }
            case .running, .completing:
                trapIfRecursive(word)
                CallbackTrampoline.runQueued()
                if _isResolved { continue }
                if !spun {
                    spun = true
                    if spinUntilResolved() { continue }
                }
                park(until: nil, watch: &watch)
            }
        }
    }

    /// Waits until the future resolves or `deadline` passes; returns whether it resolved.
    /// Never runs work on this thread.
    final func waitUntilResolved(deadline: ContinuousClock.Instant) -> Bool {
        var watch = BlockingWaitWatch()
        while true {
            let word = _word
            if word.isResolved { return true }
            if ContinuousClock.now >= deadline { return false }
            trapIfRecursive(word)
            CallbackTrampoline.runQueued()
            if _isResolved { continue }
            park(until: deadline, watch: &watch)
        }
    }

    /// Watches a future whose work runs on another thread for a moment before parking: short
    /// work (the common case for a future read right after it was made) then resolves without
    /// this thread sleeping and being woken, the dearest step of a hand-off. Returns whether the
    /// future resolved meanwhile. Never on a single core, where the runner needs this one.
    private func spinUntilResolved() -> Bool {
        guard ContextScheduler.cores > 1 else { return false }
        for _ in 0..<Self.spinLooks where _isResolved { return true }
        return false
    }

    /// How many times `spinUntilResolved` looks: a few microseconds.
    private static var spinLooks: Int { EngineTiming.readerSpinLooks }

    /// Wakes the threads parked on this future so that they look at it again.
    final func _wakeWaiters() {
        guard _word.hasWaiters else { return }
        let stripe = ParkingLot.stripe(for: self)
        stripe.withLock { stripe.broadcast() }
    }

    /// Parks this thread once: until the future resolves, a wake-up, or `deadline`.
    ///
    /// The thread is in the `WaitRegistry` while it parks; a park without a deadline first checks
    /// that it does not close a cycle of waits, and traps if it does. A thread that runs a
    /// context's work stops counting as one of its computing runners while it is parked
    /// (`RunnerAccounting`), so that the context may start other work meanwhile: nested waits
    /// never hold the parallelism of a pool. Work running on a pool thread of a lower QoS than
    /// this thread's runs at this thread's while it parks (`PriorityBoost`). `watch` may bring the
    /// deadline forward, in debug builds, to report a long wait on the main thread or on a thread
    /// of Swift's cooperative pool while it still waits.
    private func park(
        until deadline: ContinuousClock.Instant?, watch: inout BlockingWaitWatch, wakeUp: ParkedReaderWakeUp? = nil
    ) {
        let watchDeadline = watch.parkDeadline(reading: self, deadline)
        let registration = WaitRegistry.register(
            parkingOn: self, waitsForever: deadline == nil, isMainThread: MainThread.isCurrent)
        let boost = PriorityBoost.begin(for: self)
        parkOnStripe(until: watchDeadline, wakeUp: wakeUp)
        boost?.end()
        WaitRegistry.unregister(registration)
        watch.didPark(reading: self)
    }

    /// Waits once on this future's stripe: until the future resolves, a wake-up, or `deadline`.
    /// `wakeUp` set (a derived future above changed its sources since this reader's walk) makes it
    /// return at once; it is read under the stripe's lock, as the `waiters` bit is set.
    private func parkOnStripe(until deadline: ContinuousClock.Instant?, wakeUp: ParkedReaderWakeUp? = nil) {
        let stripe = ParkingLot.stripe(for: self)
        let accounting = RunnerAccounting.willPark()
        defer { accounting.didUnpark() }
        stripe.lock()
        defer { stripe.unlock() }
        guard _state.transition({ $0.addWaiter() }) == .registered else { return }
        if let wakeUp, wakeUp.isWoken { return }
        if let deadline {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return }
            // A longer wait is made of day-long ones (the callers loop): a timeout of
            // `.seconds(Int64.max)` is no date the clock can hold.
            stripe.wait(for: min(remaining, .seconds(EngineTiming.longestConditionWait)))
        } else {
            // Looked at again after a while: a lost broadcast costs a recheck, never a hang.
            stripe.wait(for: EngineTiming.lostWakeUpRecheck)
        }
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }

    /// The duration as a Dispatch interval, clamped to what Dispatch can express.
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return .nanoseconds(0) }
        guard seconds < Int64(Int.max / 1_000_000_000) - 1 else { return .never }
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }

    /// The duration in nanoseconds, clamped to `0...UInt64.max`.
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : whole &+ UInt64(attoseconds / 1_000_000_000)
    }
}
