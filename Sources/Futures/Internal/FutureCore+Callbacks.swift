extension _FutureCore {
    /// Calls `callback` with this future once it resolves: at once on this thread if it already
    /// has (queued behind the callbacks this thread is running, if any), otherwise on the thread
    /// that resolves it. Never starts work.
    ///
    /// The registered callback does not capture the future: the parking lot hands it over at
    /// resolution, so a pending future with callbacks can still be freed.
    final func addResolutionCallback(_ callback: @escaping ParkedCallback) {
        if _isResolved {
            CallbackTrampoline.deliver([callback], to: self)
            return
        }
        let stripe = ParkingLot.stripe(for: self)
        stripe.condition.lock()
        guard _state.transition({ $0.addCallbacks() }) == .registered else {
            stripe.condition.unlock()
            CallbackTrampoline.deliver([callback], to: self)
            return
        }
        stripe.callbacks[ObjectIdentifier(self), default: []].append(callback)
        stripe.condition.unlock()
    }

    /// Wakes parked readers and hands over the callbacks registered before resolution, in
    /// registration order, outside the lock.
    @usableFromInline
    final func _announceResolution(previous word: StateWord) {
        let stripe = ParkingLot.stripe(for: self)
        stripe.condition.lock()
        let callbacks = word.hasCallbacks ? stripe.callbacks.removeValue(forKey: ObjectIdentifier(self)) : nil
        if word.hasWaiters { stripe.condition.broadcast() }
        stripe.condition.unlock()
        if let callbacks {
            CallbackTrampoline.deliver(callbacks, to: self)
        }
    }

    /// Drops the callbacks of a future that is freed before it resolves.
    final func _discardParkedCallbacks() {
        let stripe = ParkingLot.stripe(for: self)
        let dropped = stripe.withLock { stripe.callbacks.removeValue(forKey: ObjectIdentifier(self)) }
        _ = dropped  // released here, outside the lock: their captures may run deinits
    }
}
