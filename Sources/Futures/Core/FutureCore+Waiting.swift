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
        // Made before a derived future's reader first parks: its walks then leave it above, to be woken
        // when sources change (`ParkedReaderWakeUp`). A read that never parks pays nothing.
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
                        // Walk again leaving the wake-up, or a source changed since the walk goes unseen.
                        wakeUp = ParkedReaderWakeUp(parkingOn: self)
                        continue
                    }
                    if firstLook {
                        firstLook = false
                        start = ContinuousClock.now
                    }
                    CallbackTrampoline.runQueued()
                    if _isResolved { continue }
                    // Work that may resolve soon elsewhere: spin briefly before paying for a sleep and wake-up.
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

    /// Returns whether it resolved; never runs work on this thread.
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

    /// Watches for a moment before parking: short work then resolves without a sleep and wake-up,
    /// the dearest step of a hand-off. Never on a single core, where the runner needs this one.
    private func spinUntilResolved() -> Bool {
        guard ContextScheduler.cores > 1 else { return false }
        for _ in 0..<Self.spinLooks where _isResolved { return true }
        return false
    }

    private static var spinLooks: Int { EngineTiming.readerSpinLooks }

    final func _wakeWaiters() {
        guard _word.hasWaiters else { return }
        let stripe = ParkingLot.stripe(for: self)
        stripe.withLock { stripe.broadcast() }
    }

    /// Parks once: until resolution, a wake-up, or `deadline`. While parked the thread is in the
    /// `WaitRegistry` (a forever-park first checks for a cycle), stops counting as a computing runner
    /// of its context (`RunnerAccounting`: nested waits never hold a pool's parallelism), and boosts
    /// lower-QoS work it waits for (`PriorityBoost`). `watch` may bring the deadline forward to
    /// report a long wait, in debug builds.
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

    /// `wakeUp` set makes it return at once; it is read under the stripe's lock, as the `waiters`
    /// bit is set.
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
            // Day-long waits at most (callers loop): `.seconds(Int64.max)` is no date the clock holds.
            stripe.wait(for: min(remaining, .seconds(EngineTiming.longestConditionWait)))
        } else {
            // A lost broadcast costs a recheck, never a hang.
            stripe.wait(for: EngineTiming.lostWakeUpRecheck)
        }
    }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }

    /// Clamped to what Dispatch can express.
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return .nanoseconds(0) }
        guard seconds < Int64(Int.max / 1_000_000_000) - 1 else { return .never }
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }

    /// Clamped to `0...UInt64.max`.
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : whole &+ UInt64(attoseconds / 1_000_000_000)
    }
}
