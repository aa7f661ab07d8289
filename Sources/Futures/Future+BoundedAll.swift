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
    /// flight go on). If the first item's future is lazy, the new future is lazy: nothing more
    /// is made, and nothing runs, until it is read. Cancelling the new future (when `Failure` is
    /// `any Error`) cancels the futures in flight and makes no more.
    ///
    /// ```swift
    /// let pages = Future.all(urls, maxConcurrent: 4) { url in BackgroundFuture { try download(url) } }
    /// for page in try pages.value { index(page) }
    /// ```
    /// - Parameters:
    ///   - items: The inputs, one future each.
    ///   - maxConcurrent: How many futures may be in flight at once; at least 1.
    ///   - fileID: The file that makes the future, named in trap messages and debug descriptions;
    ///     leave the default.
    ///   - line: The line that makes the future, likewise; leave the default.
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
            misuse("Future.all(_:maxConcurrent:_:) needs maxConcurrent of at least 1; it was given \(maxConcurrent)")
        }
        let items = Array(items)
        guard let firstItem = items.first else {
            return Future<[Value], Failure>(resolved: .success([]), fileID: fileID, line: line)
        }
        let first = makeFuture(firstItem)
        let run = BoundedAllRun(items: items, maxConcurrent: maxConcurrent, first: first, makeFuture: makeFuture)
        return DerivedFuture(lazy: first._isLazyKind, upstreams: [first], fileID: fileID, line: line) { child in
            run.start(resolving: child)
        }
    }
}

/// One run of the bounded `Future.all`: which items have futures, which are in flight, and the
/// values so far.
final class BoundedAllRun<Item: Sendable, Value: Sendable, Failure: Error>: Sendable {
    struct State {
        /// The future of the first item, made up front, until it is put in flight.
        var first: Future<Value, Failure>?
        /// The index of the next item to make a future for.
        var next = 0
        var inFlight: [Int: Future<Value, Failure>] = [:]
        var values: [Value?]
        /// How many items from the first have succeeded.
        var prefix = 0
        /// The first failure by position seen so far.
        var failure: (index: Int, error: Failure, cancelled: Bool)?
        /// Whether no new future may be made: after a failure, or once the run is over.
        var stopped = false
        /// Whether a thread is making futures now (the others leave it to that one).
        var pumping = false
        var child: DerivedFuture<[Value], Failure>?
    }

    enum Outcome {
        case succeeded([Value])
        case failed(Failure, cancelled: Bool)
    }

    private let items: [Item]
    private let maxConcurrent: Int
    private let makeFuture: @Sendable (Item) -> Future<Value, Failure>
    private let state: LockedBox<State>

    init(
        items: [Item],
        maxConcurrent: Int,
        first: Future<Value, Failure>,
        makeFuture: @escaping @Sendable (Item) -> Future<Value, Failure>
    ) {
        self.items = items
        self.maxConcurrent = maxConcurrent
        self.makeFuture = makeFuture
        state = LockedBox(State(first: first, values: Array(repeating: nil, count: items.count)))
    }

    func start(resolving child: DerivedFuture<[Value], Failure>) {
        state.withLock { $0.child = child }
        child._onResolution { [self] child in
            let inFlight = state.withLock { state -> [Future<Value, Failure>] in
                state.stopped = true
                state.child = nil
                return child.isCancelledWhileRunning ? Array(state.inFlight.values) : []
            }
            for future in inFlight { future._cancelIfCancellable() }
        }
        pump()
    }

    /// Makes futures while there are free slots and items left. One thread at a time does it;
    /// the futures that resolve at once call back into here and return at once, so the loop,
    /// not the stack, takes them in turn.
    private func pump() {
        let mayPump = state.withLock { state -> Bool in
            guard !state.pumping else { return false }
            state.pumping = true
            return true
        }
        guard mayPump else { return }
        while true {
            let step = state.withLock {
                state -> (index: Int, first: Future<Value, Failure>?, child: DerivedFuture<[Value], Failure>?)? in
                guard !state.stopped, state.inFlight.count < maxConcurrent, state.next < items.count else {
                    state.pumping = false
                    return nil
                }
                defer { state.next += 1 }
                defer { state.first = nil }
                return (state.next, state.first, state.child)
            }
            guard let step else { return }
            let future = step.first ?? makeFuture(items[step.index])
            let inFlight = state.withLock { state -> [any FutureNode] in
                state.inFlight[step.index] = future
                return Array(state.inFlight.values)
            }
            // Cancelled while the future was being made: the cancellation may have looked at the
            // futures in flight before this one was among them. It is ours alone; cancel it too.
            if step.child?.isCancelledWhileRunning == true { future._cancelIfCancellable() }
            step.child?._replaceUpstreams(with: inFlight)
            future._startWithoutBlocking()
            future._onResolution { [self] future in finished(future, at: step.index) }
        }
    }

    private func finished(_ future: Future<Value, Failure>, at index: Int) {
        let result = future._result
        let cancelled = future.isCancelledWhileRunning
        let (outcome, child) = state.withLock { state -> (Outcome?, DerivedFuture<[Value], Failure>?) in
            state.inFlight[index] = nil
            switch result {
            case .success(let value):
                state.values[index] = value
            case .failure(let error):
                state.stopped = true
                if index < state.failure?.index ?? Int.max {
                    state.failure = (index, error, cancelled)
                }
            }
            while state.prefix < state.values.count, state.values[state.prefix] != nil {
                state.prefix += 1
            }
            guard let child = state.child else { return (nil, nil) }
            if state.prefix == state.values.count {
                state.child = nil
                defer { state.values = [] }
                return (.succeeded(state.values.map { $0.unsafelyUnwrapped }), child)
            }
            if let failure = state.failure, failure.index == state.prefix {
                state.child = nil
                return (.failed(failure.error, cancelled: failure.cancelled), child)
            }
            return (nil, nil)
        }
        switch outcome {
        case .succeeded(let values)?:
            child?.resolve(with: .success(values))
        case .failed(let error, let cancelled)?:
            child?.resolve(with: .failure(error), sourceCancelled: cancelled)
        case nil:
            pump()
        }
    }
}
