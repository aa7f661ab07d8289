/// The results of some futures as an asynchronous sequence, each as its future resolves:
/// what ``Future/completions(of:)`` returns.
///
/// ```swift
/// for await result in Future.completions(of: downloads) {
///     if case .success(let page) = result { index(page) }   // the fastest first
/// }
/// ```
///
/// Each iterator delivers every result exactly once, in resolution order, and ends after the
/// last. Its first `next()` starts the lazy futures on the global context. If the iterating task
/// is cancelled, `next()` returns `nil` from then on; the futures go on.
public struct FutureCompletions<Value: Sendable, SourceFailure: Error>: AsyncSequence, Sendable {
    /// A future's result.
    public typealias Element = Result<Value, SourceFailure>
    /// Iterating never throws: failures are elements.
    public typealias Failure = Never

    let futures: [Future<Value, SourceFailure>]

    init(futures: [Future<Value, SourceFailure>]) { self.futures = futures }

    /// Makes an iterator over the results.
    ///
    /// ```swift
    /// var results = Future.completions(of: [slow, fast]).makeAsyncIterator()
    /// let first = await results.next()   // fast's result
    /// ```
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(futures: futures) }

    /// Delivers the results of the futures in the order they resolve.
    ///
    /// ```swift
    /// var iterator = completions.makeAsyncIterator()
    /// while let result = await iterator.next() { print(result) }
    /// ```
    public struct AsyncIterator: AsyncIteratorProtocol {
        var futures: [Future<Value, SourceFailure>]?
        let queue: CompletionQueue

        init(futures: [Future<Value, SourceFailure>]) {
            self.futures = futures
            queue = CompletionQueue(count: futures.count)
        }

        /// The next result to arrive, or `nil` after the last, or once the task is cancelled.
        ///
        /// ```swift
        /// let result = await iterator.next()
        /// ```
        public mutating func next() async -> Element? { await next(isolation: nil) }

        /// The next result to arrive, or `nil` after the last, or once the task is cancelled;
        /// runs on the caller's actor.
        ///
        /// ```swift
        /// let result = await iterator.next(isolation: #isolation)
        /// ```
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            if let futures {
                self.futures = nil
                queue.connect(futures)
            }
            guard let future = await queue.next() else { return nil }
            return unsafeDowncast(future, to: Future<Value, SourceFailure>.self)._result
        }
    }
}

/// One iterator's resolved, untaken futures and its waiting task. Holds `_FutureCore`s, not
/// results, so it names no generic type and needs no run-time metadata lookups per element.
final class CompletionQueue: Sendable {
    struct State {
        var buffer: [_FutureCore] = []
        var head = 0
        /// Futures not yet handed to the iterator.
        var remaining: Int
        var waiter: UnsafeContinuation<_FutureCore?, Never>?
        var isCancelled = false
    }

    private let state: LockedBox<State>

    init(count: Int) { state = LockedBox(State(remaining: count)) }

    /// Registers a callback on each future, then starts the lazy ones.
    func connect(_ futures: [_FutureCore]) {
        for future in futures {
            future.addResolutionCallback { [self] future in deliver(future) }
        }
        for future in futures where !future._isResolved {
            future.startWithoutBlocking()
        }
    }

    private func deliver(_ future: _FutureCore) {
        let waiter = state.withLock { state -> UnsafeContinuation<_FutureCore?, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                state.remaining -= 1
                return waiter
            }
            state.buffer.append(future)
            return nil
        }
        waiter?.resume(returning: future)
    }

    /// The next resolved future, waiting if none is buffered; `nil` at the end or once cancelled.
    func next() async -> _FutureCore? {
        if let ready = take() { return ready }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<_FutureCore?, Never>) in
                // `.some(future)`: resume now with `future` (`nil` ends the sequence); `.none`: wait.
                let now = state.withLock { state -> _FutureCore?? in
                    if let ready = Self.pop(&state) { return .some(ready) }
                    if state.remaining == 0 || state.isCancelled { return .some(nil) }
                    state.waiter = continuation
                    return .none
                }
                if case .some(let future) = now { continuation.resume(returning: future) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> UnsafeContinuation<_FutureCore?, Never>? in
                state.isCancelled = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
    }

    /// A buffered future, or `nil` at the end; `nil` too if the iterator must wait.
    private func take() -> _FutureCore? {
        state.withLock { state in
            if state.isCancelled || Task.isCancelled {
                state.isCancelled = true
                return nil
            }
            return Self.pop(&state)
        }
    }

    private static func pop(_ state: inout State) -> _FutureCore? {
        guard state.head < state.buffer.count, !state.isCancelled else { return nil }
        let future = state.buffer[state.head]
        state.head += 1
        state.remaining -= 1
        if state.head == state.buffer.count {
            state.buffer.removeAll(keepingCapacity: true)
            state.head = 0
        }
        return future
    }
}
