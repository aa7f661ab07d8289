extension Future {
    /// Returns a future of the values of the futures that `makeFuture` makes from `items`, in
    /// their order, with at most `maxConcurrent` of those futures made and unresolved at once.
    ///
    /// `makeFuture` runs for the first item at once and for each next one when a future in flight
    /// resolves, so work starts only when there is room; a lazy future it makes is started on the
    /// global context. Use it for a thousand downloads of which four may run at a time.
    ///
    /// The new future fails with the first failure by position, once every item before it has
    /// succeeded; after any failure nothing new is made (those in flight go on). A cancelled
    /// item's future cancels the new future, as under ``all(_:fileID:line:)``. If the first
    /// item's future is lazy, the new future is lazy. Cancelling the new future (`any Error`)
    /// cancels the futures in flight and makes no more.
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
    public static func all<Item: Sendable>(
        _ items: some Sequence<Item>,
        maxConcurrent: Int,
        fileID: StaticString = #fileID, line: UInt = #line,
        _ makeFuture: @escaping @Sendable (Item) -> Future<Value, Failure>
    ) -> Future<[Value], Failure> {
        guard maxConcurrent >= 1 else { BoundedAllRun.badMaxConcurrent(maxConcurrent, fileID: fileID, line: line) }
        let items = Array(items)
        guard let firstItem = items.first else {
            return Future<[Value], Failure>(resolved: .success([]), fileID: fileID, line: line)
        }
        let first = makeFuture(firstItem)
        // The run itself is not generic: the steps that need the types are these closures.
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

/// One run of the bounded `Future.all`: the items' futures, made as slots free up.
final class BoundedAllRun: @unchecked Sendable {
    // @unchecked: `state` is a lock box; `child` is written once in `start(resolving:)` before
    // anything that reads it can run (every read follows a future `pump` made, or the child's
    // resolution, both begun after the write).

    /// The steps that need the client's types.
    struct TypedSteps: Sendable {
        /// The failure of an item's resolved future, if it failed.
        let failure: @Sendable (_FutureCore) -> (any Error)?
        /// Cancels an item's future, if its type can be cancelled.
        let cancel: @Sendable (_FutureCore) -> Void
        /// Resolves the new future with the values of the items' futures, all succeeded.
        let succeed: @Sendable (_ child: _FutureCore, _ futures: [_FutureCore?]) -> Void
        /// Resolves the new future with a failure; whether it did.
        let fail: @Sendable (_ child: _FutureCore, _ failure: any Error, _ cancelled: Bool) -> Bool

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
    /// Set once in `start(resolving:)`, before anything that reads it can run.
    private var child: _FutureCore?

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

    static func badMaxConcurrent(_ maxConcurrent: Int, fileID: StaticString, line: UInt) -> Never {
        misuse(
            "Future.all(_:maxConcurrent:_:) needs maxConcurrent of at least 1; it was given \(maxConcurrent)",
            file: fileID, line: line)
    }

    func start(resolving child: _FutureCore) {
        assert(self.child == nil, "a bounded all's run started twice")
        self.child = child
        // Weak: a strong capture on `child`, which the run holds, kept both for ever once the
        // futures in flight were freed unresolved; while they can resolve, they hold the run.
        let watched = WatchedReference(self)
        child.addResolutionCallback { child in
            guard let run = watched.object else { return }
            // `_isCancelled` does not say who cancelled: a cancelled item resolves the new future
            // cancelled too, and then the futures in flight are not ours to cancel. `decided`
            // says the run handed out its outcome first; then `finished` settles the race.
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

    /// Makes the future of `claim`'s item, then of each next one while slots and items remain;
    /// the caller set `pumping`. One thread pumps at a time; futures that resolve at once leave
    /// the next item to this loop, not the stack. One lock section per future (store it, claim
    /// the next), plus one in `finished`: two per job, on the lock finishing threads meet on.
    private func pump(from claim: BoundedAllClaim) {
        let count = count
        var claim = claim
        let child = child.unsafelyUnwrapped
        while true {
            let index = claim.index
            let slot = claim.slot
            let future = claim.first.take() ?? claim.maker.unsafelyUnwrapped.make(index)
            var registration: CallbackRegistration?
            // A run that is over (`finish` ran) neither starts nor parks on the future; the
            // section below hands it back. A cancel inside `makeFuture` resolves the new future
            // first, and the callback parked here keeps the run alive until `finish`.
            if !child._isResolved || !state.withLock({ $0.isOver }) {
                child.replaceUpstream(inSlot: slot, with: future)
                future.startWithoutBlocking()
                registration = future.addResolutionCallback { [self] future in finished(future, inSlot: slot) }
            }
            var released = BoundedAllClaim.Released()
            var stale: CallbackRegistration?
            var cancels = false
            let next = state.withLock { state -> BoundedAllClaim? in
                if !state.store(future, registration: registration, at: index, inSlot: slot) {
                    // The future resolved and freed the slot (registration spent), or the run
                    // finished: not the run's any more. If the owner cancelled, the cancel missed
                    // it, so it is cancelled here.
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
        // Claimed under this lock, if this thread goes on pumping.
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
            // A run that is over has decided.
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
            let child = child.unsafelyUnwrapped
            typed.succeed(child, succeeded)
            finish(cancellingInFlight: false)
        case .failed:
            let child = child.unsafelyUnwrapped
            let resolved = typed.fail(child, firstFailure.unsafelyUnwrapped, firstFailureCancelled)
            // The owner's `cancel()` won and its callback left the futures in flight alone
            // (the run had decided): do what a cancel does.
            finish(cancellingInFlight: !resolved && child._isCancelled)
        case .undecided:
            if let claim { pump(from: claim) }
        }
    }

    /// Ends the run once its future is resolved: takes back its callbacks from the futures in
    /// flight (cancelling them only after the owner's `cancel()`) and lets go of them and of
    /// `makeFuture`, so an uncompleted future keeps nothing alive and no cycle stays closed.
    private func finish(cancellingInFlight: Bool) {
        var released = BoundedAllClaim.Released()
        let inFlight = state.withLock { state -> [(future: _FutureCore?, registration: CallbackRegistration?)] in
            state.stopped = true
            state.isOver = true
            if cancellingInFlight { state.ownerCancelled = true }
            // A pumping thread may be calling the maker unretained: it lets go at its next claim.
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
