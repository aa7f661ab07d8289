extension _FutureCore {
    /// Whether this is a derived future whose readers start lazy work beyond it on a context
    /// (`DerivedLinks.readersStartLazyWork`). Reads a field that never changes: no lock.
    final var readersStartLazyWork: Bool {
        _withLinksBorrowed { $0.readersStartLazyWork } ?? false
    }

    /// Whether a future derived from this one holds it strongly (`Upstream`): a lazy future,
    /// which nothing else keeps until it is read, and a background future on a pool of Futures'
    /// own, which always resolves, so that a strong link to it makes no lasting cycle.
    final var isHeldStronglyByDerivedFutures: Bool {
        let kind = _kind
        if kind.isLazy { return true }
        guard kind == .background, let scheduler = _contextScheduler else { return false }
        return scheduler.runsEveryJob
    }

    /// Runs `body` with this derived future's links, holding its stripe's lock; `nil` for a
    /// future that has none.
    final func withLinks<R>(_ body: (DerivedLinks) -> R) -> R? {
        guard let links = _links.sources else { return nil }
        return ParkingLot.withStripe(forKey: ObjectIdentifier(self)) { stripe in
            stripe.withLock { links._withUnsafeGuaranteedRef(body) }
        }
    }

    /// For a derived future: connects it to its sources if it is lazy and not yet connected, and
    /// returns the sources it currently waits on. `nil` for a future with work of its own.
    ///
    /// `withoutBlocking` marks the future as demanded by a reader that must not run work on its
    /// own thread (`get()`, `result(timeout:)`), so that sources it meets later are started on a
    /// context rather than run by whichever thread resolves its current source.
    ///
    /// `wakeUp`, from a blocking reader about to park, is kept in the links, read together with
    /// the sources, so that a change of sources wakes that reader (`ParkedReaderWakeUp`).
    final func upstreamsForDemand(withoutBlocking: Bool, wakeUp: ParkedReaderWakeUp? = nil) -> SourcesToWalk? {
        // The connection is taken into a variable, not returned: returned through `withLinks`'s
        // generic result, the closure was wrapped in a thunk, one allocation more.
        var connect: (@Sendable (_FutureCore) -> Void)?
        var connectsStep = false
        var stepSource: _FutureCore?
        let sources = withLinks { links -> SourcesToWalk in
            connect = links.takeConnection()
            connectsStep = links.forgetStepConnection()
            if connectsStep { stepSource = links.linkedFirstSource }
            if withoutBlocking { links.demandedWithoutBlocking = true }
            if let wakeUp { links.register(wakeUp) }
            return links.sourcesToWalk
        }
        guard let sources else { return nil }
        connect?(self)
        // Only a step is marked to connect on demand (`_attachStep`, `connectOnDemandLater`).
        if connectsStep, let step = _links.sources?.takeUnretainedValue() as? any DerivedStep {
            step.connectOnDemand(owner: self, first: stepSource)
        }
        return sources
    }

    /// Switches this derived future to wait on `source` (a `flatMap`'s inner future) and demands
    /// it.
    ///
    /// An eager future, or one a reader asked for without blocking, starts `source` without
    /// blocking. A lazy future gets here only after a blocking read connected it, on the thread
    /// that resolved its source: that thread demands `source` as that reader would, so a chain of
    /// lazy flatMaps runs on the reader's thread in one pass instead of one walk per link.
    ///
    /// A `source` that is this future, or reaches it through derived futures, would never
    /// resolve (Promises/A+ 2.3.1): this future fails with ``FutureCycleError`` instead, or traps
    /// when its error type cannot hold it (`_resolveWaitingOnItself()`).
    @usableFromInline
    final func wait(on source: _FutureCore) {
        if source.reaches(self) {
            _resolveWaitingOnItself()
            return
        }
        let kind = _kind
        var parkedReaders: [ParkedReaderWakeUp] = []
        var previous: [_FutureCore] = [source]
        let startWithoutBlocking =
            withLinks { links -> Bool in
                swap(&previous, &links.upstreams)
                parkedReaders = links.takeParkedReaders()
                return kind == .derived || links.demandedWithoutBlocking
            } ?? true
        releaseOutsideTheLock(&previous)
        if startWithoutBlocking {
            walkUpstream(from: source, withoutBlocking: true) { $0.startWithoutBlocking() }
        } else {
            // Only work that has not started: this thread is no reader, and may be the one running
            // `source`'s work (a lazy future whose work completes the promise this future's source
            // waited on, and that the transform then returns). `demand` on running work is a reader's
            // look, which traps when the work runs on this thread ("read from inside its own work"),
            // though nothing reads it: this future merely waits on it, and resolves when it returns.
            // Work seen `pending` is not this thread's (a thread's own work is `running` before its
            // closure starts), so the recursion check in `demand` cannot fire for it.
            walkUpstream(from: source, withoutBlocking: false) { root in
                if root._word.phase == .pending { _ = root.demand(firstLook: true, waited: .zero) }
            }
        }
        _wakeWaiters()
        // Readers parked on futures derived from this one walked up through it before the switch:
        // they must walk again to find `source` (see `ParkedReaderWakeUp`).
        for reader in parkedReaders { reader.wake() }
    }

    /// Makes `source` the future this derived future waits on in `slot` (a bounded `all`'s
    /// future in flight there), so that blocking readers demand it when they next look.
    ///
    /// It starts nothing (the caller starts each source as it makes it). It wakes only the parked
    /// readers whose walk passed here (`ParkedReaderWakeUp`) and that would act on `source`
    /// (`NewSourceCall`): a reader that runs future work, and would claim `source` if it is
    /// queued; any reader, if `source` is lazy, derived, or queued on a context that cannot start
    /// a runner for it. Such a reader's own future does not resolve when the sources change, and
    /// it would sleep until the new sources ran, for ever if it is the thread that must run them.
    /// The other readers would park again: a wake-up per source cost a bounded `all` of trivial
    /// jobs read from the main thread about half of each job's time, and a parked reader looks
    /// again anyway when it rechecks queued work.
    final func replaceUpstream(inSlot slot: Int, with source: _FutureCore) {
        let call = NewSourceCall(for: source)
        let (previous, parkedReaders) =
            withLinks { links -> (_FutureCore?, [ParkedReaderWakeUp]) in
                guard !_isResolved else { return (nil, []) }
                return (links.replaceSource(inSlot: slot, with: source), links.takeParkedReaders(calledBy: call))
            } ?? (nil, [])
        _ = previous  // released outside the lock: its deinit may run arbitrary code
        for reader in parkedReaders { reader.wake() }
    }

    /// Forgets the sources of a derived future that has resolved, so that it keeps nothing alive,
    /// and undoes its detachments: the callbacks it left on sources still pending (the losers of
    /// its race: a lazy source nobody will run now, a `first(of:)` rival, the source of a timeout
    /// that fired) go from their futures, and its timeout's timer is cancelled. What they held
    /// is released here, outside the lock.
    @usableFromInline
    final func dropUpstreams() {
        guard let links = _links.sources else { return }
        // Moved out under the lock, not copied: a link of a chain has one source and nothing else,
        // and copies cost a retain and a release each.
        var taken = TakenLinks()
        ParkingLot.withStripe(forKey: ObjectIdentifier(self)) { stripe in
            stripe.withLock {
                links._withUnsafeGuaranteedRef { $0.takeForResolution(into: &taken) }
            }
        }
        releaseTaken(&taken)
    }

    /// Undoes the detachments and releases the sources a resolved derived future's links let go
    /// of (`taken`), outside the lock they were taken under.
    final func releaseTaken(_ taken: inout TakenLinks) {
        taken.undoDetachments()
        guard taken.holdsAStrongSource else { return }
        ReleaseTrampoline.release { list in taken.move(into: &list) }
    }

    /// Releases sources that a derived future let go of, after its stripe's lock is released.
    ///
    /// Found by the derived-futures stress of issue 25 (the fuzzer's hang "once in about 8,000
    /// programs"): `dropUpstreams` used to release its sources inside `withLinks`. A source whose
    /// last reference that was (a fold's inner chain, when the fold fails fast at a cancelled
    /// source before its chain resolves) is freed there, pending with callbacks, and its deinit
    /// takes its own stripe's lock to drop them; when both futures map to the same stripe (1 in
    /// 64), the thread waits for ever on the non-recursive lock it holds, and so does every reader
    /// and resolver of any future of that stripe. A lost wake-up in appearance only. The release
    /// goes through the trampoline, so that a long unread chain is freed without deep recursion.
    private func releaseOutsideTheLock<Released>(_ released: inout [Released]) {
        guard !released.isEmpty else { return }
        ReleaseTrampoline.release { list in
            list.append(released)
            released = []
        }
    }

    /// Forgets everything a derived future resolved by its own cancellation still links to: its
    /// sources, its detachments (undone: the callbacks it parked on sources go from them, its
    /// timeout's timer is cancelled) and, if it was never connected, its connection (the closure
    /// that holds the transform and the source). Nothing for a future with work of its own.
    ///
    /// Before, a cancel resolved the future and kept them: `resolve(with:)` drops the sources, but
    /// a cancel does not go through it. A transform that captured the object that holds the
    /// derived future made a cycle (object → future → links → transform → object) that a cancel
    /// never broke, against the promise that a resolved future holds its result and nothing else.
    /// An eager future's callbacks on its sources that it does not keep as detachments (a `map`'s)
    /// still hold the transform until those sources resolve or are freed; they no longer keep the
    /// sources alive.
    final func _dropLinks() {
        guard let links = _links.sources else { return }
        var taken = TakenLinks()
        var connect: (@Sendable (_FutureCore) -> Void)?
        var stepNeverParked = false
        ParkingLot.stripe(for: self).withLock {
            links._withUnsafeGuaranteedRef { links in
                links.takeForResolution(into: &taken)
                connect = links.takeConnection()
                stepNeverParked = links.forgetStepConnection()
            }
        }
        taken.undoDetachments()
        // Released here, outside the stripe's lock (their deinits may take stripes' locks), and
        // through the trampoline, so that a long unread chain is freed without deep recursion.
        ReleaseTrampoline.release { list in
            taken.move(into: &list)
            if let connect { list.append(connect) }
            connect = nil
            // A lazy child's step that no reader parked will never run: its transform goes now,
            // as the connection's closure that held it did (what it captures may hold this
            // future). This thread cleared the mark, so no other thread touches the step.
            if stepNeverParked, let step = links.takeUnretainedValue() as? any DerivedStep {
                step.abandonStep(into: &list)
            }
        }
    }

    /// Keeps `registration`, a callback this derived future parked on a source, to take it back
    /// once the future is decided (`dropUpstreams`); takes it back at once if it already is.
    @usableFromInline
    final func keep(_ registration: CallbackRegistration?) {
        guard let registration else { return }
        keep(.callback(registration))
    }

    /// Keeps `registrations` as `keep(_:)` keeps one, under one lock.
    @usableFromInline
    final func keep(_ registrations: [CallbackRegistration]) {
        guard !registrations.isEmpty else { return }
        let kept = withLinks { links -> Bool in
            guard !_isResolved else { return false }
            links.detachments.reserveCapacity(links.detachments.count + registrations.count)
            for registration in registrations { links.detachments.append(.callback(registration)) }
            return true
        }
        if kept != true {
            for registration in registrations { _FutureCore.removeResolutionCallback(registration) }
        }
    }

    /// Keeps `detachment` until this derived future is decided, or undoes it at once if it is.
    ///
    /// A resolver publishes `resolved` before it takes the links in `dropUpstreams`, under the
    /// same lock as this: either that takes the detachment, or this sees `resolved`.
    final func keep(_ detachment: Detachment) {
        let kept = withLinks { links -> Bool in
            guard !_isResolved else { return false }
            links.detachments.append(detachment)
            return true
        }
        if kept != true { detachment.detach() }
    }

    /// Cancels `futures` with `cancel` once this derived future is decided, or at once if it is:
    /// the futures a combinator made for it alone (a fold's chain), which hold its closure until
    /// their own sources resolve. Watched, not held: they may hold this future.
    @usableFromInline
    final func _cancelWhenDecided(_ futures: [_FutureCore], _ cancel: @escaping @Sendable (_FutureCore) -> Void) {
        let watched = futures.map { WatchedSource($0) }
        keep(.action { for link in watched { if let future = link.future { cancel(future) } } })
    }

    /// Runs `expire` after `duration` on a timer that this derived future keeps until it is
    /// decided, and then cancels. A duration too long to schedule starts no timer: it never
    /// expires.
    @usableFromInline
    final func keepTimer(after duration: Duration, _ expire: @escaping @Sendable () -> Void) {
        if let timer = DelayedWork.after(duration, expire) { keep(.timer(timer)) }
    }
}
