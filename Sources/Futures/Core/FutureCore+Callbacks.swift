extension _FutureCore {
    /// Calls `callback` with this future once it resolves: at once if it has (queued behind this
    /// thread's running callbacks), else on the resolving thread. Never starts work. The callback
    /// does not capture the future, so a pending future with callbacks can still be freed.
    ///
    /// - Returns: The registration, to take the callback back (`removeResolutionCallback`);
    ///   `nil` if it ran already.
    @discardableResult
    final func addResolutionCallback(_ callback: consuming @escaping @Sendable (_FutureCore) -> Void)
        -> CallbackRegistration?
    {
        addResolutionCallback(parked: .closure(consume callback))
    }

    /// `addResolutionCallback(_:)` for a callback of either kind.
    final func addResolutionCallback(parked callback: consuming ParkedCallback) -> CallbackRegistration? {
        if _isResolved {
            CallbackTrampoline.deliver(.one(ParkedEntry(token: 0, callback: consume callback)), to: self)
            return nil
        }
        let key = ObjectIdentifier(self)
        // The stripe borrowed, not held (gated: map step); the callback moves in through an
        // optional the closure can empty.
        var unparked: ParkedCallback? = consume callback
        var swept: [ParkedEntry] = []
        let token = ParkingLot.withStripe(forKey: key) { stripe -> UInt64? in
            stripe.lock()
            defer { stripe.unlock() }
            guard _state.transition({ $0.addCallbacks() }) == .registered else { return nil }
            return parkInTable(unparked.take().unsafelyUnwrapped, stripe: stripe, key: key, sweepingInto: &swept)
        }
        Self.release(swept)
        guard let token else {
            // Resolved meanwhile: delivered now, outside the lock.
            let entry = ParkedEntry(token: 0, callback: unparked.take().unsafelyUnwrapped)
            CallbackTrampoline.deliver(.one(entry), to: self)
            return nil
        }
        return CallbackRegistration(key: key, token: token)
    }

    /// Appends `callback` to the table under `stripe`'s lock, held by the caller; its token.
    private func parkInTable(
        _ callback: consuming ParkedCallback, stripe: ParkingLot.Stripe, key: ObjectIdentifier,
        sweepingInto swept: inout [ParkedEntry]
    ) -> UInt64 {
        stripe.lastToken &+= 1
        let token = stripe.lastToken
        let entry = ParkedEntry(token: token, callback: consume callback)
        stripe.callbacks.append(consume entry, forKey: key, sweepingInto: &swept)
        _withLinksBorrowed { $0.hasTableCallbacks = true }
        return token
    }

    /// Releases swept spent steps outside the lock, through the trampoline.
    private static func release(_ swept: consuming [ParkedEntry]) {
        guard !swept.isEmpty else { return }
        var entries: [ParkedEntry]? = consume swept
        ReleaseTrampoline.release { list in
            guard let taken = entries.take() else { return }
            for entry in taken { entry.callback.abandon(into: &list) }
            list.append(taken)
        }
    }

    /// As `addResolutionCallback`, for a callback never taken back (a derived future's
    /// connection, an `onSuccess`). A non-lazy derived future's first such callback is kept in its
    /// links (`DerivedLinks.heldCallback`) under the same lock, so a chain costs no table entry per
    /// link; only while it has no callback yet, so the held one runs first (Promises/A+ 2.2.6).
    /// Not for a lazy future: its children hold it strongly, so holding a child's callback would
    /// make a cycle nothing breaks if it is never read.
    final func addResolutionCallbackForGood(_ callback: consuming @escaping @Sendable (_FutureCore) -> Void) {
        addResolutionCallbackForGood(parked: .closure(consume callback))
    }

    /// `addResolutionCallbackForGood(_:)` for a callback of either kind.
    final func addResolutionCallbackForGood(parked callback: consuming ParkedCallback) {
        let word = _word
        guard let links = _links.sources, !word.isResolved, !word.kind.isLazy else {
            _ = addResolutionCallback(parked: callback)
            return
        }
        let key = ObjectIdentifier(self)
        var unparked: ParkedCallback? = consume callback
        var swept: [ParkedEntry] = []
        ParkingLot.withStripe(forKey: key) { stripe in
            stripe.lock()
            defer { stripe.unlock() }
            var isFirst = false
            let outcome = _state.transition { word -> StateWord.RegistrationOutcome in
                isFirst = !word.hasCallbacks
                return word.addCallbacks()
            }
            guard outcome == .registered else { return }
            if isFirst {
                links._withUnsafeGuaranteedRef { swap(&$0.heldCallback, &unparked) }
            } else if let parked = unparked.take() {
                _ = parkInTable(parked, stripe: stripe, key: key, sweepingInto: &swept)
            }
        }
        Self.release(swept)
        if let resolved = unparked.take() {
            CallbackTrampoline.deliver(.one(ParkedEntry(token: 0, callback: resolved)), to: self)
        }
    }

    /// Takes back a callback not yet handed over, and releases it and its captures. Without this
    /// a stopped reader (a cancelled `get()`) or a decided race (`first(of:)`, a timeout) leaves
    /// its callback on a future that may stay pending for ever, and a callback holding a lazy
    /// source (a `zip`'s) kept it from being freed. Needs only the registration: tokens are unique
    /// within a stripe, so a future at a reused address never loses its own callback.
    static func removeResolutionCallback(_ registration: CallbackRegistration) {
        let removed = ParkingLot.withStripe(forKey: registration.key) { stripe in
            stripe.withLock { () -> ParkedEntry? in
                guard let parked = stripe.callbacks[registration.key] else { return nil }
                let (entry, rest) = parked.removing(token: registration.token)
                if entry != nil { stripe.callbacks.replace(forKey: registration.key, with: rest) }
                return entry
            }
        }
        // Released outside the lock; a step lets go of its child and transform.
        guard let removed else { return }
        ReleaseTrampoline.release { list in removed.callback.abandon(into: &list) }
    }

    /// After `resolved` was published over `word`: announces it if needed, and with
    /// `droppingLinks` lets go of a derived future's links (`_publishResolution(droppingLinks:)`).
    @usableFromInline
    final func _afterPublishing(previous word: StateWord, droppingLinks: Bool) {
        if word.needsAnnouncement {
            if droppingLinks {
                _announceResolutionDroppingLinks(previous: word)
            } else {
                _announceResolution(previous: word)
            }
        } else if droppingLinks {
            dropUpstreams()
        }
    }

    /// Wakes parked readers and hands over the callbacks, in registration order, outside the lock.
    final func _announceResolution(previous word: StateWord) {
        var held: ParkedCallback?
        var callbacks: ParkedCallbacks?
        ParkingLot.withStripe(forKey: ObjectIdentifier(self)) { stripe in
            stripe.lock()
            takeCallbacksAndWake(stripe: stripe, word: word, held: &held, callbacks: &callbacks)
            stripe.unlock()
        }
        deliver(held: held.take(), callbacks: callbacks.take())
    }

    /// `_announceResolution(previous:)` for a derived future, whose links let go of sources and
    /// detachments under the same lock, released and undone after the hand-over.
    final func _announceResolutionDroppingLinks(previous word: StateWord) {
        guard let links = _links.sources else {
            _announceResolution(previous: word)
            return
        }
        var held: ParkedCallback?
        var callbacks: ParkedCallbacks?
        var taken = TakenLinks()
        ParkingLot.withStripe(forKey: ObjectIdentifier(self)) { stripe in
            stripe.lock()
            takeCallbacksAndWake(stripe: stripe, word: word, held: &held, callbacks: &callbacks)
            links._withUnsafeGuaranteedRef { $0.takeForResolution(into: &taken) }
            stripe.unlock()
        }
        deliver(held: held.take(), callbacks: callbacks.take())
        releaseTaken(&taken)
    }

    /// Under `stripe`'s lock: takes the callbacks out (held and table) and wakes readers.
    @inline(__always)
    private func takeCallbacksAndWake(
        stripe: ParkingLot.Stripe, word: StateWord, held: inout ParkedCallback?, callbacks: inout ParkedCallbacks?
    ) {
        if word.hasCallbacks {
            var inTable = true
            _withLinksBorrowed { links in
                swap(&held, &links.heldCallback)
                inTable = links.hasTableCallbacks
            }
            if inTable { callbacks = stripe.callbacks.removeValue(forKey: ObjectIdentifier(self)) }
        }
        if word.hasWaiters { stripe.broadcast() }
    }

    @inline(__always)
    private func deliver(held: consuming ParkedCallback?, callbacks: consuming ParkedCallbacks?) {
        // Each value is consumed where bound, moving on to the trampoline; the `consume`s are
        // needed, or the optimizer copies the held callback and destroys the original later
        // (gated: map step).
        if let held = consume held {
            let first = ParkedEntry(token: 0, callback: consume held)
            switch consume callbacks {
            case nil: CallbackTrampoline.deliver(.one(consume first), to: self)
            case .one(let second)?: CallbackTrampoline.deliver(.many([consume first, second]), to: self)
            case .many(let rest)?: CallbackTrampoline.deliver(.many([consume first] + rest), to: self)
            }
        } else if let callbacks = consume callbacks {
            CallbackTrampoline.deliver(callbacks, to: self)
        }
    }

    /// How many callbacks wait for this future (held and in the table). For tests.
    final var _parkedCallbackCount: Int {
        let stripe = ParkingLot.stripe(for: self)
        return stripe.withLock {
            var held = 0
            if _withLinksBorrowed({ $0.heldCallback != nil }) == true { held = 1 }
            return held + (stripe.callbacks[ObjectIdentifier(self)]?.count ?? 0)
        }
    }

    /// Drops the callbacks of a future that is freed before it resolves.
    final func _discardParkedCallbacks() {
        // No lock: this runs in the deinit.
        if _withLinksBorrowed({ $0.hasTableCallbacks }) == false { return }
        let stripe = ParkingLot.stripe(for: self)
        var dropped = stripe.withLock { stripe.callbacks.removeValue(forKey: ObjectIdentifier(self)) }
        // Outside the lock, through the trampoline: a callback may hold the next link of a long
        // pending chain, whose deinit drops its own callbacks in turn.
        guard dropped != nil else { return }
        ReleaseTrampoline.release { list in
            dropped?.abandon(into: &list)
            list.append(dropped as Any)
            dropped = nil
        }
    }
}
