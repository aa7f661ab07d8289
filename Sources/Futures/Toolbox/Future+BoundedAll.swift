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

/// What a bounded `Future.all` knows, under its lock. No generic type in it, and none in the run:
/// the steps that need the client's types are closures made by the inlinable `Future.all`.
struct BoundedAllState: Sendable {
    /// The index of the next item to make a future for.
    var next = 0
    /// The futures made and not yet resolved, each in a slot of its own (the same slot as among
    /// the new future's sources). Made as needed, up to `slotLimit`, then reused: a
    /// `maxConcurrent` of `Int.max` makes no more slots than futures in flight at once.
    var slots: [BoundedAllSlot] = []
    let slotLimit: Int
    /// The free slots among `slots`, taken from the end.
    var freeSlots: [Int] = []
    /// The future of the first item, made up front, until it is put in flight.
    var first: _FutureCore?
    /// Makes the future of the item at an index, until no more futures may be made: then it is
    /// let go, with everything it captured.
    var make: (@Sendable (Int) -> _FutureCore)?
    /// The futures that succeeded, by item (they hold only their values).
    var succeeded: [_FutureCore?]
    /// How many items from the first have succeeded.
    var prefix = 0
    /// The first failure by position seen so far, and where.
    var failureIndex = Int.max
    var failure: (any Error)?
    var failureCancelled = false
    /// Whether no new future may be made: after a failure, or once the run is over.
    var stopped = false
    /// Whether the run is over and has let go of its futures in flight (`finish`).
    var isOver = false
    /// Whether a thread is making futures now (the others leave it to that one).
    var pumping = false
    /// Whether the outcome has been handed out.
    var decided = false
    /// Whether the new future was cancelled by its owner (its own `cancel()`), not failed by an
    /// item's cancellation: only then are the futures in flight, and one being made, cancelled.
    var ownerCancelled = false

    enum Decision {
        case undecided
        case succeeded
        case failed
    }

    init(count: Int, slots: Int, first: _FutureCore, make: @escaping @Sendable (Int) -> _FutureCore) {
        succeeded = Array(repeating: nil, count: count)
        slotLimit = slots
        self.first = first
        self.make = make
    }

    /// Whether a future may be put in flight now: a slot is free, or another may be made.
    var hasRoom: Bool { !freeSlots.isEmpty || slots.count < slotLimit }

    /// A free slot's number, making the slot if none is free. Call only when `hasRoom`.
    mutating func takeSlot() -> Int {
        if let free = freeSlots.popLast() { return free }
        slots.append(BoundedAllSlot())
        return slots.count - 1
    }

    /// Takes every future in flight out of its slot, when the run is over.
    mutating func takeInFlight() -> [(future: _FutureCore?, registration: CallbackRegistration?)] {
        var taken: [(future: _FutureCore?, registration: CallbackRegistration?)] = []
        for (number, slot) in slots.enumerated() where slot.index >= 0 {
            let future = slot.source.future
            taken.append((future, slot.empty().registration))
            freeSlots.append(number)
        }
        return taken
    }
}

/// A slot for a future of a bounded `Future.all` in flight: the item, the future, and the
/// callback the run parked on it. One object per slot, made with the run and reused, so that the
/// state's array holds plain references (a struct with a weak field is handled through the
/// runtime's value witnesses at each copy). Read and written only under the run's lock.
///
/// The link is watched (`WatchedSource`) unless the future is lazy or background (`Upstream`), as a derived future's
/// link to its source is: the future's callback holds the run, so a strong link made a cycle
/// (future → callback → run → future) that kept a future whose promise was dropped, the run and
/// the new future for ever, and that LeakSanitizer saw as about a thousand weak-reference side
/// tables per run of the racing tests, the only part of the cycle it could not see reachable.
final class BoundedAllSlot: @unchecked Sendable {
    // @unchecked: read and written only under the lock of the run's state.

    /// The item's index; -1 while the slot is free.
    @exclusivity(unchecked) var index = -1
    @exclusivity(unchecked) var source = Upstream()
    /// The run's callback on the future, to take back once the run is over; `nil` until stored,
    /// or when it ran at once.
    @exclusivity(unchecked) var registration: CallbackRegistration?

    /// Frees the slot; returns the future it held strongly, if any (a watched link is dropped here:
    /// that frees no future), and the registration, to release outside the lock. Two plain
    /// values, not an `Upstream` in an optional tuple, which the compiler moved and destroyed
    /// through the runtime's generic value witnesses.
    func empty() -> (owned: _FutureCore?, registration: CallbackRegistration?) {
        index = -1
        // Moved out (`take()` leaves the link empty), not copied out and then released by an
        // overwrite: a retain and a release per job.
        return (source.take(), registration.take())
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
    private var child: _FutureCore!

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
        state = LockedBox(BoundedAllState(count: count, slots: min(maxConcurrent, count), first: first, make: make))
    }

    @usableFromInline
    static func badMaxConcurrent(_ maxConcurrent: Int, fileID: StaticString, line: UInt) -> Never {
        misuse(
            "Future.all(_:maxConcurrent:_:) needs maxConcurrent of at least 1; it was given \(maxConcurrent)",
            file: fileID, line: line)
    }

    @usableFromInline
    func start(resolving child: _FutureCore) {
        self.child = child
        // Watched, not strong: the callback is parked on `child`, which the run holds, and a
        // strong capture kept both for ever once every future in flight was freed unresolved
        // (their promises dropped). The futures in flight hold the run through their callbacks
        // while they can resolve; without them, there is nothing for this callback to do. Not
        // `weak` either: a weak reference gave the run a side table, and sent every retain and
        // release of it, several per job, down the runtime's slow path.
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
        let mayPump = state.withLock { state -> Bool in
            guard !state.pumping else { return false }
            state.pumping = true
            return true
        }
        if mayPump { pumpClaimed() }
    }

    /// Makes futures while there are free slots and items left; the caller set `pumping`. One
    /// thread at a time does it; the futures that resolve at once call back into here and return
    /// at once, so the loop, not the stack, takes them in turn.
    ///
    /// A future's callback registration is stored in its slot under the lock the loop takes next
    /// (for the next item, or to stop), not under one of its own: each lock section is a share of
    /// a trivial job's cost.
    private func pumpClaimed() {
        let count = count
        var unstored: (index: Int, slot: Int, registration: CallbackRegistration)?
        while true {
            // The next item and its slot, or nil if none may be made now; with the future of the
            // first item, or the maker, which the state lets go of with the last item or once
            // stopped.
            var make: (@Sendable (Int) -> _FutureCore)?
            var first: _FutureCore?
            var released: (@Sendable (Int) -> _FutureCore)?
            var releasedFirst: _FutureCore?
            var stale: CallbackRegistration?
            let next = state.withLock { state -> (index: Int, slot: Int)? in
                if let unstored {
                    let slot = state.slots[unstored.slot]
                    if slot.index == unstored.index {
                        slot.registration = unstored.registration
                    } else {
                        stale = unstored.registration
                    }
                }
                guard !state.stopped, state.hasRoom, state.next < count else {
                    state.pumping = false
                    if state.stopped || state.next == count {
                        swap(&released, &state.make)
                        swap(&releasedFirst, &state.first)
                    }
                    return nil
                }
                let index = state.next
                state.next += 1
                if index == 0 {
                    swap(&first, &state.first)
                } else if index == count - 1 {
                    swap(&make, &state.make)
                } else {
                    make = state.make
                }
                return (index, state.takeSlot())
            }
            unstored = nil
            // The future resolved before its registration was stored (a no-op then), or the run
            // finished: its callback goes.
            if let stale { _FutureCore.removeResolutionCallback(stale) }
            // Outside the lock: what `makeFuture` captured may run deinits.
            released = nil
            releasedFirst = nil
            guard let next else { return }
            guard let future = first ?? make?(next.index) else { return }
            make = nil
            let (isOver, ownerCancelled) = state.withLock { state -> (Bool, Bool) in
                // The run finished while the future was being made: it is not the run's any more.
                guard !state.isOver else { return (true, state.ownerCancelled) }
                let slot = state.slots[next.slot]
                slot.index = next.index
                slot.source = Upstream(future)
                return (false, state.ownerCancelled)
            }
            // Cancelled by its owner while the future was being made: the cancellation may have
            // looked at the futures in flight before this one was among them. Cancel it too.
            if ownerCancelled { typed.cancel(future) }
            if isOver { return }
            child.replaceUpstream(inSlot: next.slot, with: future)
            future.startWithoutBlocking()
            let registration = future.addResolutionCallback { [self] future in
                finished(future, at: next.index, inSlot: next.slot)
            }
            if let registration { unstored = (next.index, next.slot, registration) }
        }
    }

    private func finished(_ future: _FutureCore, at index: Int, inSlot slot: Int) {
        let failure = typed.failure(future)
        let cancelled = future._isCancelled
        var succeeded: [_FutureCore?] = []
        var firstFailure: (any Error)?
        var firstFailureCancelled = false
        var released: _FutureCore?
        // Whether this thread goes on to make the next futures: claimed here, under this lock,
        // rather than under one more (`pump()`).
        var mayPump = false
        let decision = state.withLock { state -> BoundedAllState.Decision in
            defer {
                if !state.decided, !state.pumping {
                    state.pumping = true
                    mayPump = true
                }
            }
            if state.slots[slot].index == index {
                released = state.slots[slot].empty().owned
                state.freeSlots.append(slot)
            }
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
        _ = released  // let go of outside the lock: a future it held may run its deinit
        switch decision {
        case .succeeded:
            typed.succeed(child, succeeded)
            finish(cancellingInFlight: false)
        case .failed:
            let resolved = typed.fail(child, firstFailure.unsafelyUnwrapped, firstFailureCancelled)
            // The owner's `cancel()` won against this failure; its callback left the futures in
            // flight alone because the run had decided. The cancel is what resolved the future, so
            // it does what a cancel does.
            finish(cancellingInFlight: !resolved && child._isCancelled)
        case .undecided:
            if mayPump { pumpClaimed() }
        }
    }

    /// Ends the run once its future is resolved: takes its callbacks back from the futures still
    /// in flight (they go on, unless `cancellingInFlight`, after the owner's `cancel()`, cancels
    /// them) and lets go of them and of `makeFuture`. A future in flight that nobody completes
    /// then no longer keeps the run and its resolved future alive; and a `makeFuture` that
    /// captured the futures it hands out no longer closes a cycle through them.
    private func finish(cancellingInFlight: Bool) {
        var make: (@Sendable (Int) -> _FutureCore)?
        var first: _FutureCore?
        let inFlight = state.withLock { state -> [(future: _FutureCore?, registration: CallbackRegistration?)] in
            state.stopped = true
            state.isOver = true
            if cancellingInFlight { state.ownerCancelled = true }
            swap(&make, &state.make)
            swap(&first, &state.first)
            return state.takeInFlight()
        }
        for item in inFlight {
            if let registration = item.registration { _FutureCore.removeResolutionCallback(registration) }
            if cancellingInFlight, let future = item.future { typed.cancel(future) }
        }
        _ = (make, first)  // released here, outside the lock
    }
}
