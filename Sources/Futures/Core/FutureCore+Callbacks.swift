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
        // The stripe borrowed (`withStripe`), not held in a variable: that was a retain and a
        // release of it per registration. The callback moves in through an optional, which the
        // closure can empty where a consuming parameter cannot be consumed.
        var unparked: ParkedCallback? = consume callback
        let token = ParkingLot.withStripe(forKey: key) { stripe -> UInt64? in
            stripe.lock()
            defer { stripe.unlock() }
            guard _state.transition({ $0.addCallbacks() }) == .registered else { return nil }
            return parkInTable(unparked.take().unsafelyUnwrapped, stripe: stripe, key: key)
        }
        guard let token else {
            // Resolved meanwhile: delivered now, outside the lock.
            let entry = ParkedEntry(token: 0, callback: unparked.take().unsafelyUnwrapped)
            CallbackTrampoline.deliver(.one(entry), to: self)
            return nil
        }
        return CallbackRegistration(key: key, token: token)
    }

    /// Appends `callback` to this future's callbacks in `stripe`'s table, whose lock the caller
    /// holds, and returns its token.
    private func parkInTable(_ callback: consuming ParkedCallback, stripe: ParkingLot.Stripe, key: ObjectIdentifier)
        -> UInt64
    {
        stripe.lastToken &+= 1
        let token = stripe.lastToken
        stripe.callbacks.append(ParkedEntry(token: token, callback: consume callback), forKey: key)
        _withLinksBorrowed { $0.hasTableCallbacks = true }
        return token
    }

    /// Calls `callback` with this future once it resolves, as `addResolutionCallback` does, for a
    /// callback that is never taken back: a derived future's connection to this source, an
    /// `onSuccess`.
    ///
    /// The first such callback of a derived future that is not lazy is kept in its links
    /// (`DerivedLinks.heldCallback`), under the same stripe lock, instead of the parking lot's
    /// table: a chain of derived futures then costs no table entry per link, no hashing, and no
    /// table that grows with the chain. Only while the future has no callback yet, so that the
    /// held one is always the first registered, and runs first (Promises/A+ 2.2.6).
    ///
    /// Why not for a lazy future: what derives from it holds it strongly, so its links holding
    /// that child's callback would make a cycle that nothing breaks if the lazy future is never
    /// read. A child of a future that is not lazy holds it weakly (`Upstream`, `WatchedSource`).
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
        // Moved, not copied, into its place: `unparked` is empty once it is parked.
        var unparked: ParkedCallback? = consume callback
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
                _ = parkInTable(parked, stripe: stripe, key: key)
            }
        }
        if let resolved = unparked.take() {
            CallbackTrampoline.deliver(.one(ParkedEntry(token: 0, callback: resolved)), to: self)
        }
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
        // The stripe borrowed, as in `addResolutionCallback(parked:)`.
        let removed = ParkingLot.withStripe(forKey: registration.key) { stripe in
            stripe.withLock { () -> ParkedEntry? in
                guard let parked = stripe.callbacks[registration.key] else { return nil }
                let (entry, rest) = parked.removing(token: registration.token)
                if entry != nil { stripe.callbacks.replace(forKey: registration.key, with: rest) }
                return entry
            }
        }
        // Released here, outside the lock: its captures may run deinits. A step lets go of its
        // child and transform, which its child's links (the step itself) would keep otherwise.
        guard let removed else { return }
        ReleaseTrampoline.release { list in removed.callback.abandon(into: &list) }
    }

    /// Wakes parked readers and hands over the callbacks registered before resolution, in
    /// registration order, outside the lock.
    @usableFromInline
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

    /// `_announceResolution(previous:)` for a derived future, whose links also let go of its
    /// sources and detachments under the same lock (what `dropUpstreams` does under one of its
    /// own); they are released and undone once the callbacks are handed over.
    @usableFromInline
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

    /// Under `stripe`'s lock: takes this resolved future's callbacks out (the one its links hold,
    /// and those in the table) and wakes its parked readers.
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

    /// Hands over the callbacks `takeCallbacksAndWake` took, in registration order.
    @inline(__always)
    private func deliver(held: consuming ParkedCallback?, callbacks: consuming ParkedCallbacks?) {
        // The callers pass what they took (`take()`), and each value is consumed where it is
        // bound: it moves on to the trampoline, which queues it, instead of being copied (a
        // retain now and a release later, per callback). The `consume`s are written out: without
        // them the optimizer copies the held callback into its entry and destroys the original
        // after the delivery, on each step of a pending `map` or `flatMap` chain.
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

    /// How many callbacks wait in the parking lot for this future: what it keeps for its readers
    /// while it is pending. For tests.
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
        // No lock to look at the links: this runs in the deinit, when no other thread can reach them.
        if _withLinksBorrowed({ $0.hasTableCallbacks }) == false { return }
        let stripe = ParkingLot.stripe(for: self)
        var dropped = stripe.withLock { stripe.callbacks.removeValue(forKey: ObjectIdentifier(self)) }
        // Released outside the lock (their captures may run deinits) and through the release
        // trampoline: a callback may hold the next link of a pending chain, whose deinit drops
        // its own callbacks, and so on 100,000 links down.
        guard dropped != nil else { return }
        ReleaseTrampoline.release { list in
            dropped?.abandon(into: &list)
            list.append(dropped as Any)
            dropped = nil
        }
    }
}
