/// The results of some futures as an asynchronous sequence, each as its future resolves:
/// what ``Future/completions(of:)`` returns.
///
/// ```swift
/// for await result in Future.completions(of: downloads) {
///     if case .success(let page) = result { index(page) }   // the fastest first
/// }
/// ```
///
/// Each iterator delivers every future's result exactly once, in the order the futures
/// resolve, and ends after the last. Making an iterator runs nothing; its first `next()`
/// starts the lazy futures among them on the global context. If the iterating task is
/// cancelled, a waiting `next()` returns `nil` at once, and so does every later call: the
/// sequence ends, and the futures go on.
public struct FutureCompletions<Value: Sendable, SourceFailure: Error>: AsyncSequence, Sendable {
    /// A future's result.
    public typealias Element = Result<Value, SourceFailure>
    /// Iterating never throws: failures are elements.
    public typealias Failure = Never

    let futures: [Future<Value, SourceFailure>]

    /// Makes an iterator over the results.
    ///
    /// ```swift
    /// var results = Future.completions(of: [slow, fast]).makeAsyncIterator()
    /// let first = await results.next()   // fast's result
    /// ```
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(futures: futures)
    }

    /// Delivers the results of the futures in the order they resolve.
    ///
    /// ```swift
    /// var iterator = completions.makeAsyncIterator()
    /// while let result = await iterator.next() { print(result) }
    /// ```
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var futures: [Future<Value, SourceFailure>]?
        private let queue: CompletionQueue<Value, SourceFailure>

        init(futures: [Future<Value, SourceFailure>]) {
            self.futures = futures
            queue = CompletionQueue(count: futures.count)
        }

        /// The next result to arrive, or `nil` after the last, or once the task is cancelled.
        ///
        /// ```swift
        /// let result = await iterator.next()
        /// ```
        public mutating func next() async -> Element? {
            await next(isolation: nil)
        }

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
            return await queue.next()
        }
    }
}

/// The results delivered to one iterator of `FutureCompletions` and not yet taken, and the task
/// waiting for the next one.
final class CompletionQueue<Value: Sendable, Failure: Error>: Sendable {
    struct State {
        var buffer: [Result<Value, Failure>] = []
        var head = 0
        /// Results not yet handed to the iterator.
        var remaining: Int
        var waiter: UnsafeContinuation<Result<Value, Failure>?, Never>?
        var isCancelled = false
    }

    private let state: LockedBox<State>

    init(count: Int) {
        state = LockedBox(State(remaining: count))
    }

    /// Registers a callback on each future, then starts the lazy ones without blocking.
    func connect(_ futures: [Future<Value, Failure>]) {
        for future in futures {
            future._whenResolved { [self] result in deliver(result) }
        }
        for future in futures where !future.isResolved {
            future._startWithoutBlocking()
        }
    }

    private func deliver(_ result: Result<Value, Failure>) {
        let waiter = state.withLock { state -> UnsafeContinuation<Result<Value, Failure>?, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                state.remaining -= 1
                return waiter
            }
            state.buffer.append(result)
            return nil
        }
        waiter?.resume(returning: result)
    }

    /// The next result, waiting for it if none is buffered.
    func next() async -> Result<Value, Failure>? {
        if let ready = take() { return ready }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<Value, Failure>?, Never>) in
                // `.some(result)`: resume now with `result` (`nil` ends the sequence); `.none`: wait.
                let now = state.withLock { state -> Result<Value, Failure>?? in
                    if let ready = Self.pop(&state) { return .some(ready) }
                    if state.remaining == 0 || state.isCancelled { return .some(nil) }
                    state.waiter = continuation
                    return .none
                }
                if case .some(let result) = now { continuation.resume(returning: result) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> UnsafeContinuation<Result<Value, Failure>?, Never>? in
                state.isCancelled = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
    }

    /// A buffered result, or `nil` at the end; `nil` too if the iterator must wait.
    private func take() -> Result<Value, Failure>? {
        state.withLock { state in
            if state.isCancelled || Task.isCancelled {
                state.isCancelled = true
                return nil
            }
            return Self.pop(&state)
        }
    }

    private static func pop(_ state: inout State) -> Result<Value, Failure>? {
        guard state.head < state.buffer.count, !state.isCancelled else { return nil }
        let result = state.buffer[state.head]
        state.head += 1
        state.remaining -= 1
        if state.head == state.buffer.count {
            state.buffer.removeAll(keepingCapacity: true)
            state.head = 0
        }
        return result
    }
}
