extension Future {
    /// Returns a future of the values of the futures that `makeFuture` makes from `items`, in
    /// their order, with at most `maxConcurrent` of those futures made and unresolved at once.
    ///
    /// `makeFuture` is called for the first item at once, and for each next item only when a
    /// slot is free: when one of the futures in flight resolves. So a background future's work
    /// starts only when there is room for it, and a lazy future made by `makeFuture` is started
    /// on the global context as soon as it is made. Use it for a thousand downloads of which
    /// four may run at a time.
    ///
    /// The new future fails with the failure of the first item by position that fails, once
    /// every item before it has succeeded; after any failure no new future is made (the ones in
    /// flight go on). An item's future that is cancelled is such a failure: the new future is then
    /// cancelled too, and the other futures in flight still go on, as they do under ``all(_:fileID:line:)``.
    /// If the first item's future is lazy, the new future is lazy: nothing more is made, and
    /// nothing runs, until it is read. Cancelling the new future itself (when `Failure` is
    /// `any Error`) cancels the futures in flight and makes no more.
    ///
    /// ```swift
    /// let pages = Future.all(urls, maxConcurrent: 4) { url in BackgroundFuture { try download(url) } }
    /// for page in try pages.value { index(page) }
    /// ```
    /// - Parameters:
    ///   - items: The inputs, one future each.
    ///   - maxConcurrent: How many futures may be in flight at once; at least 1.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - makeFuture: Makes the future of one item. It runs on the thread that resolves the
    ///     future whose slot it takes (on the caller's thread for the first ones); keep it short.
    /// - Returns: A future of the values, in the order of `items`.
    @inlinable
    public static func all<Item: Sendable>(
        _ items: some Sequence<Item>,
        maxConcurrent: Int,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ makeFuture: @escaping @Sendable (Item) -> Future<Value, Failure>
    ) -> Future<[Value], Failure> {
        guard maxConcurrent >= 1 else { BoundedAllRun.badMaxConcurrent(maxConcurrent, fileID: fileID, line: line) }
        let items = Array(items)
        guard let firstItem = items.first else {
            return Future<[Value], Failure>(resolved: .success([]), fileID: fileID, line: line)
        }
        let first = makeFuture(firstItem)
        // Inlinable, so that these closures are compiled for the client's types: the run itself is
        // not generic, and no step of it looks up a generic type's metadata at run time (in generic
        // code that is not specialized, each type it names costs a hashed cache search, and a
        // trivial job cost about 24 of them).
        let run = BoundedAllRun(
            count: items.count, maxConcurrent: maxConcurrent, first: first,
            make: { index in makeFuture(items[index]) },
            typed: BoundedAllRun.TypedSteps(
                failure: { future in unsafeDowncast(future, to: Future<Value, Failure>.self)._erasedFailure },
                cancel: { future in unsafeDowncast(future, to: Future<Value, Failure>.self)._cancelIfCancellable() },
                succeed: { child, futures in
                    let values = futures.map {
                        unsafeDowncast($0.unsafelyUnwrapped, to: Future<Value, Failure>.self)._successValueUnchecked
                    }
                    unsafeDowncast(child, to: Future<[Value], Failure>.self).resolve(with: .success(values))
                },
                fail: { child, failure, cancelled in
                    unsafeDowncast(child, to: Future<[Value], Failure>.self).resolve(
                        with: .failure(failure as! Failure), sourceCancelled: cancelled)
                }))
        return .init(derivingFrom: [first], fileID: fileID, line: line) { child in
            run.start(resolving: child)
        }
    }
}

/// One run of the bounded `Future.all`: the items' futures, made as slots free up, and the future
/// they resolve.
@usableFromInline
final class BoundedAllRun: @unchecked Sendable {
    // @unchecked: `state` is a lock box; `child` is written once, in `start(resolving:)`, before
    // anything that reads it can run (every read follows a future made by `pump`, or the child's
    // resolution, both of which `start` begins after the write).

    /// The steps of a run that need the client's types, made where they are known.
    @usableFromInline
    struct TypedSteps: Sendable {
        /// The failure of an item's resolved future, if it failed.
        let failure: @Sendable (_FutureCore) -> (any Error)?
        /// Cancels an item's future, if its type can be cancelled.
        let cancel: @Sendable (_FutureCore) -> Void
        /// Resolves the new future with the values of the items' futures, all succeeded.
        let succeed: @Sendable (_ child: _FutureCore, _ futures: [_FutureCore?]) -> Void
        /// Resolves the new future with a failure; whether it did.
        let fail: @Sendable (_ child: _FutureCore, _ failure: any Error, _ cancelled: Bool) -> Bool

        @usableFromInline
        init(
            failure: @escaping @Sendable (_FutureCore) -> (any Error)?,
            cancel: @escaping @Sendable (_FutureCore) -> Void,
            succeed: @escaping @Sendable (_FutureCore, [_FutureCore?]) -> Void,
            fail: @escaping @Sendable (_FutureCore, any Error, Bool) -> Bool
        ) {
            self.failure = failure
            self.cancel = cancel
            self.succeed = succeed
            self.fail = fail
        }
    }

    private let count: Int
    private let typed: TypedSteps
    private let state: LockedBox<BoundedAllState>
    /// The new future, retained by hand in `start(resolving:)` and released in `deinit`: set once,
    /// before anything reads it, and read on every job without a retain of its own.
    private var child: Unmanaged<_FutureCore>?

    deinit { child?.release() }

    @usableFromInline
    init(
        count: Int,
        maxConcurrent: Int,
        first: _FutureCore,
        make: @escaping @Sendable (Int) -> _FutureCore,
        typed: TypedSteps
    ) {
        self.count = count
        self.typed = typed
        state = LockedBox(
            BoundedAllState(
                count: count, slots: min(maxConcurrent, count), first: first, maker: BoundedAllMaker(make)))
    }

    @usableFromInline
    static func badMaxConcurrent(_ maxConcurrent: Int, fileID: StaticString, line: UInt) -> Never {
        misuse(
            "Future.all(_:maxConcurrent:_:) needs maxConcurrent of at least 1; it was given \(maxConcurrent)",
            file: fileID, line: line)
    }

    @usableFromInline
    func start(resolving child: _FutureCore) {
        assert(self.child == nil, "a bounded all's run started twice")
        self.child = .passRetained(child)
        // Weak: the callback is parked on `child`, which the run holds, and a strong capture
        // kept both for ever once every future in flight was freed unresolved (their promises
        // dropped). The futures in flight hold the run through their callbacks while they can
        // resolve; without them, there is nothing for this callback to do.
        let watched = WatchedReference(self)
        child.addResolutionCallback { child in
            guard let run = watched.object else { return }
            // `_isCancelled` alone does not say who cancelled: an item that fails by cancellation
            // resolves the new future cancelled too (`sourceCancelled`), and then the futures in
            // flight are not ours to cancel (a shared future, another owner's promise) and go on,
            // as after any failure. `decided` says the run handed its outcome out first; then
            // `finished` knows whether its hand-out or a cancel won, and finishes the run.
            let cancelled = child._isCancelled
            let ownerCancelled = run.state.withLock { state -> Bool? in
                state.stopped = true
                if !cancelled { return false }
                guard !state.decided else { return nil }
                state.decided = true
                return true
            }
            if let ownerCancelled { run.finish(cancellingInFlight: ownerCancelled) }
        }
        pump()
    }

    /// Makes futures while there are free slots and items left, unless another thread does.
    private func pump() {
        var released = BoundedAllClaim.Released()
        let claim = state.withLock { state -> BoundedAllClaim? in
            guard !state.pumping else { return nil }
            state.pumping = true
            return state.claimNext(count: count, released: &released)
        }
        _ = released  // outside the lock: what `makeFuture` captured may run deinits
        if let claim { pump(from: claim) }
    }

    /// Makes the future of `claim`'s item, then of each next item while there are free slots and
    /// items left; the caller set `pumping` and claimed the item. One thread at a time does it;
    /// the futures that resolve at once call back into `finished`, which leaves the next item to
    /// this loop, so the loop, not the stack, takes them in turn.
    ///
    /// One lock section per future: it stores the future and its callback's registration in the
    /// slot reserved for it, and claims the next item. With the one in `finished`, which frees the
    /// slot and claims the next item too, that is two sections per job (four before), on the lock
    /// that the two threads finishing jobs meet on.
    private func pump(from claim: BoundedAllClaim) {
        let count = count
        var claim = claim
        let child = child.unsafelyUnwrapped
        while true {
            let index = claim.index
            let slot = claim.slot
            // The maker, unretained: this thread pumps, and only the pumping thread lets go of it.
            let future = claim.first.take() ?? claim.maker.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.make(index) }
            var registration: CallbackRegistration?
            child._withUnsafeGuaranteedRef { child in
                // A run already over neither starts a lazy future nor parks a callback on it; the
                // section below then hands the future back. Over means `finish` ran, not only
                // that the new future resolved: a cancel made inside `makeFuture` resolves it
                // while its callbacks wait for this thread's current one to return, and the
                // callback parked here is then what keeps the run alive until `finish` cancels
                // this future with the others in flight.
                guard !child._isResolved || !state.withLock({ $0.isOver }) else { return }
                child.replaceUpstream(inSlot: slot, with: future)
                future.startWithoutBlocking()
                registration = future.addResolutionCallback { [self] future in finished(future, inSlot: slot) }
            }
            var released = BoundedAllClaim.Released()
            var stale: CallbackRegistration?
            var cancels = false
            let next = state.withLock { state -> BoundedAllClaim? in
                if !state.store(future, registration: registration, at: index, inSlot: slot) {
                    // The future resolved and its callback freed the slot (the registration is
                    // spent), or the run finished meanwhile: the future is not the run's any
                    // more. Cancelled by its owner then: the cancellation looked at the futures
                    // in flight before this one was among them, so it is cancelled here.
                    stale = registration
                    cancels = state.ownerCancelled
                }
                return state.claimNext(count: count, released: &released)
            }
            if let stale { _FutureCore.removeResolutionCallback(stale) }
            if cancels { typed.cancel(future) }
            _ = released  // outside the lock
            guard let next else { return }
            claim = next
        }
    }

    /// Takes in the resolved future of the item in `slot` (the run's callback on it).
    func finished(_ future: _FutureCore, inSlot slot: Int) {
        let failure = typed.failure(future)
        let cancelled = future._isCancelled
        var succeeded: [_FutureCore?] = []
        var firstFailure: (any Error)?
        var firstFailureCancelled = false
        var released: _FutureCore?
        // The next item, if this thread goes on to make the next futures: claimed here, under
        // this lock, rather than under one more.
        var claim: BoundedAllClaim?
        var releasedMaker = BoundedAllClaim.Released()
        let count = count
        let decision = state.withLock { state -> BoundedAllState.Decision in
            defer {
                if !state.decided, !state.pumping {
                    state.pumping = true
                    claim = state.claimNext(count: count, released: &releasedMaker)
                }
            }
            // A run over has decided: what the item did no longer matters.
            guard let (index, held) = state.free(slot: slot) else { return .undecided }
            released = held
            if let failure {
                state.stopped = true
                if index < state.failureIndex {
                    state.failureIndex = index
                    state.failure = failure
                    state.failureCancelled = cancelled
                }
            } else {
                state.succeeded[index] = future
            }
            while state.prefix < state.succeeded.count, state.succeeded[state.prefix] != nil {
                state.prefix += 1
            }
            guard !state.decided else { return .undecided }
            if state.prefix == state.succeeded.count {
                state.decided = true
                swap(&succeeded, &state.succeeded)
                return .succeeded
            }
            if state.failureIndex == state.prefix {
                state.decided = true
                firstFailure = state.failure
                firstFailureCancelled = state.failureCancelled
                return .failed
            }
            return .undecided
        }
        _ = (released, releasedMaker)  // let go of outside the lock: a deinit may run arbitrary code
        switch decision {
        case .succeeded:
            let child = child.unsafelyUnwrapped.takeUnretainedValue()
            typed.succeed(child, succeeded)
            finish(cancellingInFlight: false)
        case .failed:
            let child = child.unsafelyUnwrapped.takeUnretainedValue()
            let resolved = typed.fail(child, firstFailure.unsafelyUnwrapped, firstFailureCancelled)
            // The owner's `cancel()` won against this failure; its callback left the futures in
            // flight alone because the run had decided. The cancel is what resolved the future, so
            // it does what a cancel does.
            finish(cancellingInFlight: !resolved && child._isCancelled)
        case .undecided:
            if let claim { pump(from: claim) }
        }
    }

    /// Ends the run once its future is resolved: takes its callbacks back from the futures still
    /// in flight (they go on, unless `cancellingInFlight`, after the owner's `cancel()`, cancels
    /// them) and lets go of them and of `makeFuture`. A future in flight that nobody completes
    /// then no longer keeps the run and its resolved future alive; and a `makeFuture` that
    /// captured the futures it hands out no longer closes a cycle through them.
    private func finish(cancellingInFlight: Bool) {
        var released = BoundedAllClaim.Released()
        let inFlight = state.withLock { state -> [(future: _FutureCore?, registration: CallbackRegistration?)] in
            state.stopped = true
            state.isOver = true
            if cancellingInFlight { state.ownerCancelled = true }
            // A thread that pumps may be calling the maker, unretained: it lets go of it itself,
            // at its next claim, which finds the run stopped.
            if !state.pumping { state.letGo(into: &released) }
            return state.takeInFlight()
        }
        for item in inFlight {
            if let registration = item.registration { _FutureCore.removeResolutionCallback(registration) }
            if cancellingInFlight, let future = item.future { typed.cancel(future) }
        }
        _ = released  // released here, outside the lock
    }
}
