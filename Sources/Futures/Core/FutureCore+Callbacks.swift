extension _FutureCore {
    /// Calls `callback` with this future once it resolves: at once on this thread if it already
    /// has (queued behind the callbacks this thread is running, if any), otherwise on the thread
    /// that resolves it. Never starts work.
    ///
    /// The registered callback does not capture the future: the parking lot hands it over at
    /// resolution, so a pending future with callbacks can still be freed.
    ///
    /// - Returns: The registration of a callback parked until resolution, with which a reader
    ///   that stops waiting takes it back (`removeResolutionCallback`); `nil` if it ran already.
    @discardableResult
    final func addResolutionCallback(_ callback: @escaping ParkedCallback) -> CallbackRegistration? {
        if _isResolved {
            CallbackTrampoline.deliver(.one(ParkedEntry(token: 0, callback: callback)), to: self)
            return nil
        }
        let key = ObjectIdentifier(self)
        let stripe = ParkingLot.stripe(forKey: key)
        stripe.condition.lock()
        guard _state.transition({ $0.addCallbacks() }) == .registered else {
            stripe.condition.unlock()
            CallbackTrampoline.deliver(.one(ParkedEntry(token: 0, callback: callback)), to: self)
            return nil
        }
        stripe.lastToken &+= 1
        let token = stripe.lastToken
        stripe.callbacks[key, default: .many([])].append(ParkedEntry(token: token, callback: callback))
        stripe.condition.unlock()
        return CallbackRegistration(key: key, token: token)
    }

    /// Takes back a callback parked by `addResolutionCallback`, if its future has not handed it
    /// over yet, and releases it and all it captured.
    ///
    /// Why: a callback holds what it will resolve or resume (a derived future, a task's
    /// continuation), and the parking lot holds the callback until its future resolves or is
    /// freed. A reader that stops waiting (a cancelled `get()`), or a race already decided (a
    /// `first(of:)` won by another source, a timeout that fired), would otherwise leave its
    /// callback, and all it holds, on a future that may stay pending for hours; a lazy source
    /// that nobody runs any more stays pending for ever, and when the callback held that source
    /// (as a `zip` of it did), the source was never freed. It needs only the registration, not
    /// the future: tokens are unique within a stripe, so a future freed meanwhile, whose
    /// address another future took, never loses a callback of its own.
    static func removeResolutionCallback(_ registration: CallbackRegistration) {
        let stripe = ParkingLot.stripe(forKey: registration.key)
        let removed = stripe.withLock { () -> ParkedEntry? in
            guard let parked = stripe.callbacks[registration.key] else { return nil }
            let (entry, rest) = parked.removing(token: registration.token)
            if entry != nil { stripe.callbacks[registration.key] = rest }
            return entry
        }
        _ = removed  // released here, outside the lock: its captures may run deinits
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

    /// How many callbacks wait in the parking lot for this future: what it keeps for its readers
    /// while it is pending. For tests.
    final var _parkedCallbackCount: Int {
        let stripe = ParkingLot.stripe(for: self)
        return stripe.withLock { stripe.callbacks[ObjectIdentifier(self)]?.count ?? 0 }
    }

    /// Drops the callbacks of a future that is freed before it resolves.
    final func _discardParkedCallbacks() {
        let stripe = ParkingLot.stripe(for: self)
        let dropped = stripe.withLock { stripe.callbacks.removeValue(forKey: ObjectIdentifier(self)) }
        _ = dropped  // released here, outside the lock: their captures may run deinits
    }
}
