extension Future {
    /// Returns a future of this future's value, or one that fails with ``FutureTimeoutError``
    /// if this future has not resolved within `duration`.
    ///
    /// No thread waits: a Dispatch timer fails the new future, and the first of the timer and
    /// this future decides it for every reader, callback and derived future; a blocking reader
    /// returns at the deadline.
    ///
    /// The clock starts when the work is asked for: now for a background or promise-backed
    /// future; on first read for a lazy one, whose work is then started on the global context
    /// (as ``get()`` does) so the reader can leave at the deadline. Queued background work a
    /// blocking reader may claim (<doc:ThreadsContextsAndDeadlocks>) is claimed through a timeout
    /// too. A zero or negative `duration` gives the result if already resolved, else the error.
    ///
    /// The loser of the race is let go when it is decided, so a long timeout on a future that
    /// resolves at once keeps nothing. On timeout this future goes on; to cancel it use
    /// ``timeout(after:cancellingSource:fileID:line:)``, to keep a concrete error type
    /// ``timeout(after:failingWith:fileID:line:)``.
    ///
    /// ```swift
    /// let page = BackgroundFuture { try download(url) }.timeout(after: .seconds(5))
    /// switch page.result {
    /// case .success(let data): show(data)
    /// case .failure(let error as FutureTimeoutError): print("too slow: \(error)")
    /// case .failure(let error): print("failed: \(error)")
    /// }
    /// ```
    /// - Parameters:
    ///   - duration: How long this future is given, from when the clock starts.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    /// - Returns: A future that fails with this future's error, or with ``FutureTimeoutError``.
    public func timeout(
        after duration: Duration,
        fileID: StaticString = #fileID, line: UInt = #line
    ) -> Future<Value, any Error> {
        _timeout(
            after: duration, cancellingSource: false, fileID: fileID, line: line, failure: { $0 }, timedOut: { $0 })
    }

    /// Returns a future of this future's value, or one that fails with `error` if this future
    /// has not resolved within `duration`; its error type stays `Failure`.
    ///
    /// As ``timeout(after:fileID:line:)``, with your own error standing for "too slow".
    ///
    /// ```swift
    /// enum LoadError: Error { case timedOut, unreachable }
    /// let page = download.timeout(after: .seconds(5), failingWith: .timedOut)   // Future<Data, LoadError>
    /// ```
    /// - Parameters:
    ///   - duration: How long this future is given, from when the clock starts.
    ///   - error: The error of the new future when time runs out.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    /// - Returns: A future that fails with this future's error, or with `error`.
    public func timeout(
        after duration: Duration,
        failingWith error: Failure,
        fileID: StaticString = #fileID, line: UInt = #line
    ) -> Future<Value, Failure> {
        _timeout(
            after: duration, cancellingSource: false, fileID: fileID, line: line, failure: { $0 },
            timedOut: { _ in error })
    }

    /// A timeout with a Dispatch timer; `failure` and `timedOut` make the new future's errors.
    func _timeout<NewFailure: Error>(
        after duration: Duration,
        cancellingSource: Bool,
        fileID: StaticString, line: UInt,
        failure: @escaping @Sendable (Failure) -> NewFailure,
        timedOut: @escaping @Sendable (FutureTimeoutError) -> NewFailure
    ) -> Future<Value, NewFailure> {
        let source = self
        // Blocking readers start lazy work on a context (`readersStartLazyWork`) so they can
        // leave at the deadline; queued work they may claim, they claim. The connection starts
        // the work for others.
        return .init(derivingFrom: [self], readersStartLazyWork: true, fileID: fileID, line: line) { child in
            let race = TakeOnce(child)
            // The child keeps the registration and the timer and undoes both once decided
            // (`dropUpstreams`): a winning source cancels the timer, which held the child until
            // the deadline; a winning timer takes its callback back from a source that may stay
            // pending long after. Either leak grew without bound under repeated timeouts.
            child.keep(
                source._addResolutionCallback { core in
                    guard let child = race.take(as: Future<Value, NewFailure>.self) else { return }
                    let source = unsafeDowncast(core, to: Future<Value, Failure>.self)
                    switch source._result {
                    case .success(let value):
                        child.resolve(with: .success(value))
                    case .failure(let error):
                        child.resolve(with: .failure(failure(error)), sourceCancelled: source._isCancelled)
                    }
                })
            // Held only to cancel it: otherwise the timer would keep a resolved source alive.
            let sourceToCancel = cancellingSource ? source : nil
            let expire: @Sendable () -> Void = {
                guard let child = race.take(as: Future<Value, NewFailure>.self) else { return }
                // The source first: whoever sees the timeout sees the source cancelled.
                sourceToCancel?._cancelIfCancellable()
                let error = FutureTimeoutError(timeout: duration, site: "\(fileID):\(line)")
                child.resolve(with: .failure(timedOut(error)))
            }
            if source.isResolved { return }
            source.startWithoutBlocking()
            if duration <= .zero {
                expire()
            } else {
                child.keepTimer(after: duration, expire)
            }
        }
    }
}

extension Future where Failure == any Error {
    /// Returns a future of this future's value, or one that fails with ``FutureTimeoutError``
    /// if this future has not resolved within `duration`, and may cancel this future then.
    ///
    /// As ``timeout(after:fileID:line:)``; with `cancellingSource` true a timeout also cancels
    /// this future (``cancel()``) and its derived futures. Cancel it only if nothing else reads it.
    ///
    /// ```swift
    /// let search = BackgroundFuture { () throws -> [Hit] in try index.search(query) }
    /// let hits = search.timeout(after: .milliseconds(200), cancellingSource: true)
    /// ```
    /// - Parameters:
    ///   - duration: How long this future is given, from when the clock starts.
    ///   - cancellingSource: Whether a timeout cancels this future.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    /// - Returns: A future that fails with this future's error, or with ``FutureTimeoutError``.
    public func timeout(
        after duration: Duration,
        cancellingSource: Bool,
        fileID: StaticString = #fileID, line: UInt = #line
    ) -> Future<Value, any Error> {
        _timeout(
            after: duration, cancellingSource: cancellingSource, fileID: fileID, line: line,
            failure: { $0 }, timedOut: { $0 })
    }
}
