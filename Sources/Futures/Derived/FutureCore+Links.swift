extension _FutureCore {
    /// `DerivedLinks.readersStartLazyWork`; an immutable field, read without the lock.
    final var readersStartLazyWork: Bool { _withLinksBorrowed { $0.readersStartLazyWork } ?? false }

    /// Whether derived futures hold this one strongly (`Upstream`): a lazy future (nothing else
    /// keeps it) or a background one on Futures' own pool (it always resolves: no lasting cycle).
    final var isHeldStronglyByDerivedFutures: Bool {
        let kind = _kind
        if kind.isLazy { return true }
        guard kind == .background, let scheduler = _contextScheduler else { return false }
        return scheduler.runsEveryJob
    }

    /// Runs `body` under this future's stripe lock (a cancellable step's transform, `ChildStep`).
    @usableFromInline
    final func _withStripeLocked(_ body: () -> Void) { ParkingLot.stripe(for: self).withLock(body) }

    /// Runs `body` on the links under the stripe lock; `nil` for a future without links.
    final func withLinks<R>(_ body: (DerivedLinks) -> R) -> R? {
        guard let links = _links.sources else { return nil }
        return ParkingLot.withStripe(forKey: ObjectIdentifier(self)) { stripe in
            stripe.withLock { links._withUnsafeGuaranteedRef(body) }
        }
    }

    /// Connects a lazy derived future if not yet connected and returns its current sources; `nil`
    /// for a future with work of its own. `withoutBlocking` (`get()`, `result(timeout:)`) makes
    /// sources met later start on a context; `wakeUp` is registered under the same lock as the
    /// sources are read, so a change of sources wakes that reader (`ParkedReaderWakeUp`).
    final func upstreamsForDemand(withoutBlocking: Bool, wakeUp: ParkedReaderWakeUp? = nil) -> SourcesToWalk? {
        // Taken into a variable: returned through `withLinks`'s generic result it got a thunk.
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

    /// Switches this derived future to wait on `source` (a `flatMap`'s inner) and demands it.
    /// An eager future, or one demanded without blocking, starts `source` on a context; a lazy
    /// one gets here on the thread that resolved its source after a blocking read, and demands
    /// as that reader would, so lazy flatMaps run in one pass. A `source` that reaches this
    /// future fails it with ``FutureCycleError`` (or traps: `_resolveWaitingOnItself()`).
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
            // Only work not yet started: this thread is no reader and may be running `source`'s
            // work, so `demand` on running work would trap as "read from inside its own work".
            // Work seen `pending` is never this thread's own (that is `running` first).
            walkUpstream(from: source, withoutBlocking: false) { root in
                if root._word.phase == .pending { _ = root.demand(firstLook: true, waited: .zero) }
            }
        }
        _wakeWaiters()
        // Readers that walked up through here before the switch must walk again to find `source`.
        for reader in parkedReaders { reader.wake() }
    }

    /// Makes `source` the future waited on in `slot` (a bounded `all`'s job). Starts nothing.
    /// Wakes only the parked readers that passed here and would act on `source`
    /// (`NewSourceCall`): one that runs future work when `source` is queued, or any when it is
    /// lazy, derived, or queued where no runner can start; such a reader could otherwise sleep
    /// for ever. Waking the others would cost each trivial job half its time for nothing.
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

    /// Forgets a resolved derived future's sources so it keeps nothing alive, and undoes its
    /// detachments (callbacks on race losers go, its timer is cancelled), releasing outside the lock.
    final func dropUpstreams() {
        guard let links = _links.sources else { return }
        // Moved out, not copied (gated: map step).
        var taken = TakenLinks()
        ParkingLot.withStripe(forKey: ObjectIdentifier(self)) { stripe in
            stripe.withLock {
                links._withUnsafeGuaranteedRef { $0.takeForResolution(into: &taken) }
            }
        }
        releaseTaken(&taken)
    }

    /// Undoes and releases what `dropUpstreams` took, outside the lock.
    final func releaseTaken(_ taken: inout TakenLinks) {
        taken.undoDetachments()
        guard taken.holdsAStrongSource else { return }
        ReleaseTrampoline.release { list in taken.move(into: &list) }
    }

    /// Releases sources a derived future let go of after the stripe lock is released, through the
    /// trampoline. Hazard: a freed pending source's deinit takes its own stripe's lock, and when
    /// both map to the same stripe a release under the lock deadlocks that stripe for good.
    private func releaseOutsideTheLock<Released>(_ released: inout [Released]) {
        guard !released.isEmpty else { return }
        ReleaseTrampoline.release { list in
            list.append(released)
            released = []
        }
    }

    /// Forgets what a future resolved by its own cancellation still links to: sources,
    /// detachments (undone), an unused connection (it holds the transform and source) and its
    /// step's transform. A cancel does not go through `resolve(with:)`, and a transform capturing
    /// the future's holder would otherwise make a cycle a cancel never broke. The emptied step
    /// stays parked on its source until that resolves or is freed.
    final func _dropLinks() {
        guard let links = _links.sources else { return }
        var taken = TakenLinks()
        var connect: (@Sendable (_FutureCore) -> Void)?
        var transform: Any?
        var stepNeverParked = false
        ParkingLot.stripe(for: self).withLock {
            links._withUnsafeGuaranteedRef { links in
                links.takeForResolution(into: &taken)
                connect = links.takeConnection()
                transform = links.takeUnrunTransform()
                stepNeverParked = links.forgetStepConnection()
            }
        }
        taken.undoDetachments()
        // Outside the stripe lock (deinits take stripe locks), through the trampoline.
        ReleaseTrampoline.release { list in
            taken.move(into: &list)
            if let connect { list.append(connect) }
            connect = nil
            if let transform { list.append(transform) }
            transform = nil
            // A lazy child's step no reader parked never runs: its transform goes now. This
            // thread cleared the mark, so no other thread touches the step.
            if stepNeverParked, let step = links.takeUnretainedValue() as? any DerivedStep {
                step.abandonStep(into: &list)
            }
        }
    }

    /// Keeps `registration` to take back once decided (`dropUpstreams`); at once if decided.
    final func keep(_ registration: CallbackRegistration?) {
        guard let registration else { return }
        keep(.callback(registration))
    }

    /// Keeps `registrations` as `keep(_:)` keeps one, under one lock.
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

    /// Keeps `detachment` until decided, or undoes it now. A resolver publishes `resolved` before
    /// taking the links under this lock: either it takes the detachment or this sees `resolved`.
    final func keep(_ detachment: Detachment) {
        let kept = withLinks { links -> Bool in
            guard !_isResolved else { return false }
            links.detachments.append(detachment)
            return true
        }
        if kept != true { detachment.detach() }
    }

    /// Cancels `futures` (made for this future alone, e.g. a fold's chain) once decided. Watched,
    /// not held: they may hold this future.
    final func _cancelWhenDecided(_ futures: [_FutureCore], _ cancel: @escaping @Sendable (_FutureCore) -> Void) {
        let watched = futures.map { WatchedSource($0) }
        keep(.action { for link in watched { if let future = link.future { cancel(future) } } })
    }

    /// Runs `expire` after `duration` on a timer kept until decided; an unschedulable duration
    /// never expires.
    final func keepTimer(after duration: Duration, _ expire: @escaping @Sendable () -> Void) {
        if let timer = DelayedWork.after(duration, expire) { keep(.timer(timer)) }
    }
}
