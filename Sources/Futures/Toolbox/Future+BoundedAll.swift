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
    public static func all<Item: Sendable>(
        _ items: some Sequence<Item>,
        maxConcurrent: Int,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ makeFuture: @escaping @Sendable (Item) -> Future<Value, Failure>
    ) -> Future<[Value], Failure> {
        guard maxConcurrent >= 1 else {
            misuse(
                "Future.all(_:maxConcurrent:_:) needs maxConcurrent of at least 1; it was given \(maxConcurrent)",
                file: fileID, line: line)
        }
        let items = Array(items)
        guard let firstItem = items.first else {
            return Future<[Value], Failure>(resolved: .success([]), fileID: fileID, line: line)
        }
        let first = makeFuture(firstItem)
        let run = BoundedAllRun(items: items, maxConcurrent: maxConcurrent, first: first, makeFuture: makeFuture)
        return .init(derivingFrom: [first], fileID: fileID, line: line) { child in
            run.start(resolving: child)
        }
    }
}

/// What a bounded `Future.all` knows, under its lock. It names no generic type, so that the code
/// that touches it is compiled for its concrete types: the run's own code is generic and not
/// specialized for the client's types, and each generic type it touched per future cost a look-up
/// of the type's metadata at run time (a third of the time of a run of resolved futures).
struct BoundedAllState: Sendable {
    /// The index of the next item to make a future for.
    var next = 0
    /// The futures made and not yet resolved, by item.
    var inFlight: [Int: BoundedAllItem] = [:]
    /// The run's `makeFuture` (a `BoundedAllMaker`), until no more futures may be made: then it
    /// is let go, with everything it captured.
    var maker: (any AnyObject & Sendable)?
    /// The futures that succeeded, by item (they hold only their values).
    var succeeded: [(any AnyObject & Sendable)?]
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

    init(count: Int, maker: any AnyObject & Sendable) {
        succeeded = Array(repeating: nil, count: count)
        self.maker = maker
    }
}

/// A future of a bounded `Future.all` in flight, and the callback the run parked on it.
///
/// The link is weak unless the future is lazy (`Upstream`), as a derived future's link to its
/// source is: the future's callback holds the run, so a strong link made a cycle (future →
/// callback → run → future) that kept a future whose promise was dropped, the run and the new
/// future for ever, and that LeakSanitizer saw as about a thousand weak-reference side tables per
/// run of the racing tests, the only part of the cycle it could not see reachable.
struct BoundedAllItem {
    let source: Upstream
    /// The run's callback on the future, to take back once the run is over; `nil` until stored,
    /// or when it ran at once.
    var registration: CallbackRegistration?
}

/// A bounded `Future.all`'s `makeFuture`, held by the run's state as an existential object so
/// that the state names no generic type, and let go once no more futures may be made.
final class BoundedAllMaker<Item: Sendable, Value: Sendable, Failure: Error>: Sendable {
    let make: @Sendable (Item) -> Future<Value, Failure>

    init(_ make: @escaping @Sendable (Item) -> Future<Value, Failure>) {
        self.make = make
    }
}

/// One run of the bounded `Future.all`: the items, the closure, and the future they resolve.
final class BoundedAllRun<Item: Sendable, Value: Sendable, Failure: Error>: @unchecked Sendable {
    // @unchecked: `state` is a lock box and `first` a take-once slot; `child` is written once, in
    // `start(resolving:)`, before anything that reads it can run (every read follows a future
    // made by `pump`, or the child's resolution, both of which `start` begins after the write).

    private let items: [Item]
    private let maxConcurrent: Int
    /// The future of the first item, made up front, until it is put in flight.
    private let first: TakeOnce
    private let state: LockedBox<BoundedAllState>
    private var child: Future<[Value], Failure>!

    init(
        items: [Item],
        maxConcurrent: Int,
        first: Future<Value, Failure>,
        makeFuture: @escaping @Sendable (Item) -> Future<Value, Failure>
    ) {
        self.items = items
        self.maxConcurrent = maxConcurrent
        self.first = TakeOnce(first)
        state = LockedBox(BoundedAllState(count: items.count, maker: BoundedAllMaker(makeFuture)))
    }

    func start(resolving child: Future<[Value], Failure>) {
        self.child = child
        // Weak: the callback is parked on `child`, which the run holds, and a strong capture kept
        // both for ever once every future in flight was freed unresolved (their promises
        // dropped). The futures in flight hold the run through their callbacks while they can
        // resolve; without them, there is nothing for this callback to do.
        child._onResolution { [weak self] child in
            guard let self else { return }
            // `_isCancelled` alone does not say who cancelled: an item that fails by cancellation
            // resolves the new future cancelled too (`sourceCancelled`), and then the futures in
            // flight are not ours to cancel (a shared future, another owner's promise) and go on,
            // as after any failure. `decided` says the run handed its outcome out first; then
            // `finished` knows whether its hand-out or a cancel won, and finishes the run.
            let cancelled = child._isCancelled
            let ownerCancelled = state.withLock { state -> Bool? in
                state.stopped = true
                if !cancelled { return false }
                guard !state.decided else { return nil }
                state.decided = true
                return true
            }
            if let ownerCancelled { finish(cancellingInFlight: ownerCancelled) }
        }
        pump()
    }

    /// Makes futures while there are free slots and items left. One thread at a time does it;
    /// the futures that resolve at once call back into here and return at once, so the loop,
    /// not the stack, takes them in turn.
    private func pump() {
        let maxConcurrent = maxConcurrent
        let count = items.count
        let mayPump = state.withLock { state -> Bool in
            guard !state.pumping else { return false }
            state.pumping = true
            return true
        }
        guard mayPump else { return }
        while true {
            // The index of the next item to make a future for, or -1 if none may be made now; and
            // the maker, which the state lets go of with the last item or once stopped.
            var maker: (any AnyObject & Sendable)?
            var released: (any AnyObject & Sendable)?
            let index = state.withLock { state -> Int in
                guard !state.stopped, state.inFlight.count < maxConcurrent, state.next < count else {
                    state.pumping = false
                    if state.stopped || state.next == count { swap(&released, &state.maker) }
                    return -1
                }
                defer { state.next += 1 }
                if state.next == count - 1 { swap(&maker, &state.maker) } else { maker = state.maker }
                return state.next
            }
            released = nil  // outside the lock: what `makeFuture` captured may run deinits
            guard index >= 0, let maker else { return }
            let future =
                first.take(as: Future<Value, Failure>.self)
                ?? unsafeDowncast(maker, to: BoundedAllMaker<Item, Value, Failure>.self).make(items[index])
            let node: _FutureCore = future
            let (inFlight, ownerCancelled) = state.withLock { state -> ([_FutureCore]?, Bool) in
                // The run finished while the future was being made: it is not the run's any more.
                guard !state.isOver else { return (nil, state.ownerCancelled) }
                state.inFlight[index] = BoundedAllItem(source: Upstream(node))
                return (state.inFlight.values.compactMap(\.source.future), state.ownerCancelled)
            }
            // Cancelled by its owner while the future was being made: the cancellation may have
            // looked at the futures in flight before this one was among them. Cancel it too.
            if ownerCancelled { future._cancelIfCancellable() }
            guard let inFlight else { return }
            child.replaceUpstreams(with: inFlight)
            future._startWithoutBlocking()
            let registration = future._onResolution { [self] future in finished(future, at: index) }
            if let registration {
                let stored = state.withLock { state -> Bool in
                    guard state.inFlight[index] != nil else { return false }
                    state.inFlight[index]?.registration = registration
                    return true
                }
                // Resolved meanwhile (a no-op then), or the run finished: its callback goes.
                if !stored { _FutureCore.removeResolutionCallback(registration) }
            }
        }
    }

    private func finished(_ future: Future<Value, Failure>, at index: Int) {
        let object: any AnyObject & Sendable = future
        let failure = future._erasedFailure
        let cancelled = future._isCancelled
        var succeeded: [(any AnyObject & Sendable)?] = []
        var firstFailure: (any Error)?
        var firstFailureCancelled = false
        let decision = state.withLock { state -> BoundedAllState.Decision in
            state.inFlight[index] = nil
            if let failure {
                state.stopped = true
                if index < state.failureIndex {
                    state.failureIndex = index
                    state.failure = failure
                    state.failureCancelled = cancelled
                }
            } else {
                state.succeeded[index] = object
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
        switch decision {
        case .succeeded:
            let values = succeeded.map {
                unsafeDowncast($0.unsafelyUnwrapped, to: Future<Value, Failure>.self)._successValueUnchecked
            }
            child.resolve(with: .success(values))
            finish(cancellingInFlight: false)
        case .failed:
            let resolved = child.resolve(
                with: .failure(firstFailure.unsafelyUnwrapped as! Failure), sourceCancelled: firstFailureCancelled)
            // The owner's `cancel()` won against this failure; its callback left the futures in
            // flight alone because the run had decided. The cancel is what resolved the future, so
            // it does what a cancel does.
            finish(cancellingInFlight: !resolved && child._isCancelled)
        case .undecided:
            pump()
        }
    }

    /// Ends the run once its future is resolved: takes its callbacks back from the futures still
    /// in flight (they go on, unless `cancellingInFlight`, after the owner's `cancel()`, cancels
    /// them) and lets go of them and of `makeFuture`. A future in flight that nobody completes
    /// then no longer keeps the run and its resolved future alive; and a `makeFuture` that
    /// captured the futures it hands out no longer closes a cycle through them.
    private func finish(cancellingInFlight: Bool) {
        var maker: (any AnyObject & Sendable)?
        let inFlight = state.withLock { state -> [BoundedAllItem] in
            state.stopped = true
            state.isOver = true
            if cancellingInFlight { state.ownerCancelled = true }
            swap(&maker, &state.maker)
            defer { state.inFlight = [:] }
            return Array(state.inFlight.values)
        }
        for item in inFlight {
            if let registration = item.registration { _FutureCore.removeResolutionCallback(registration) }
            if cancellingInFlight, let future = item.source.future {
                unsafeDowncast(future, to: Future<Value, Failure>.self)._cancelIfCancellable()
            }
        }
        _ = maker  // released here, outside the lock
    }
}
