extension Future {
    /// Returns a future of this future's value, or one that fails with ``FutureTimeoutError``
    /// if this future has not resolved within `duration`.
    ///
    /// No thread waits for the time to pass: a Dispatch timer fails the new future, and the
    /// first of the timer and this future to finish decides it. Its readers, callbacks and
    /// derived futures all see the same outcome, and a blocking reader returns at the deadline.
    ///
    /// The clock starts when the work is asked for. A background or promise-backed future's
    /// timeout starts now; a lazy future's timeout is lazy too: nothing runs and no clock starts
    /// until it is first read. Then this future's work is started on the global context (as
    /// ``get()`` starts it), not on the reader's thread, so that the reader can leave at the
    /// deadline. Queued background work that a blocking reader may claim (see
    /// <doc:ThreadsContextsAndDeadlocks>) it claims through a timeout as through any derived
    /// future, so that it never waits on work that no thread will run: the work of the serial
    /// queue it runs on, for one. A zero or negative `duration` gives the result if this future has already
    /// resolved when the clock starts, and the timeout error otherwise.
    ///
    /// Its timer, and what it holds (the new future, `error`), is kept until the timer fires or
    /// this future resolves first, whichever decides the race; the loser is let go then: a source
    /// that wins cancels the timer, and a timer that wins takes its callback back from the
    /// source. A long timeout on a future that resolves at once keeps nothing afterwards.
    ///
    /// On timeout this future goes on: its work is not cancelled, and a later read of it finds
    /// its result. To cancel it, use ``timeout(after:cancellingSource:fileID:line:)``. To keep
    /// a concrete error type, use ``timeout(after:failingWith:fileID:line:)``.
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
    @inlinable
    public func timeout(
        after duration: Duration,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<Value, any Error> {
        _timeout(
            after: duration, cancellingSource: false, fileID: fileID, line: line, failure: { $0 }, timedOut: { $0 })
    }

    /// Returns a future of this future's value, or one that fails with `error` if this future
    /// has not resolved within `duration`; its error type stays `Failure`.
    ///
    /// It works as ``timeout(after:fileID:line:)`` does, for a future whose error type you want
    /// to keep: give the error that stands for "too slow" in your own type.
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
    @inlinable
    public func timeout(
        after duration: Duration,
        failingWith error: Failure,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<Value, Failure> {
        _timeout(
            after: duration, cancellingSource: false, fileID: fileID, line: line, failure: { $0 },
            timedOut: { _ in error })
    }

    /// A timeout with a Dispatch timer; `failure` and `timedOut` make the new future's errors.
    @inlinable
    func _timeout<NewFailure: Error>(
        after duration: Duration,
        cancellingSource: Bool,
        fileID: StaticString,
        line: UInt,
        failure: @escaping @Sendable (Failure) -> NewFailure,
        timedOut: @escaping @Sendable (FutureTimeoutError) -> NewFailure
    ) -> Future<Value, NewFailure> {
        let source = self
        // Inlinable, with its callbacks, so that they are compiled for the caller's types:
        // unspecialized, a timeout looked up the metadata of `Future` and of its slot at run time.
        // A blocking reader walks up to the source's work as through any link, but starts lazy
        // work on a context instead of running it on its own thread, so that it can leave at the
        // deadline (`readersStartLazyWork`); queued work it may claim, it claims. The connection
        // starts the work too, for a reader that does not block.
        return .init(derivingFrom: [self], readersStartLazyWork: true, fileID: fileID, line: line) { child in
            let race = TakeOnce(child)
            // The child keeps the registration and the timer, and undoes both once it is
            // decided (`dropUpstreams`): the winner's side is done, and the loser's must not
            // wait for its own end. A source that wins cancels the timer, which otherwise held
            // the child and its captures until the deadline (a one-hour timeout per request grew
            // without bound); a timer that wins takes its callback back from the source, which
            // may stay pending long after (a zero timeout polled on one pending future left one
            // callback per call).
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
            // The timer holds the source only if it must cancel it: otherwise a source that
            // resolves first is not kept alive until the timer fires.
            let sourceToCancel = cancellingSource ? source : nil
            let expire: @Sendable () -> Void = {
                guard let child = race.take(as: Future<Value, NewFailure>.self) else { return }
                // The source first, so that whoever sees the timeout also sees the source cancelled.
                sourceToCancel?._cancelIfCancellable()
                let error = FutureTimeoutError(timeout: duration, site: "\(fileID):\(line)")
                child.resolve(with: .failure(timedOut(error)))
            }
            // A source resolved already has decided: no timer is needed.
            if source.isResolved { return }
            source._startWithoutBlocking()
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
    /// It works as ``timeout(after:fileID:line:)`` does. With `cancellingSource` true, a
    /// timeout also cancels this future (see ``cancel()``): work that has not started never
    /// runs, running work can see it with ``Future/isCurrentWorkCancelled``, and the futures
    /// derived from this one are cancelled too. Cancel the source only if nothing else reads it.
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
    @inlinable
    public func timeout(
        after duration: Duration,
        cancellingSource: Bool,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<Value, any Error> {
        _timeout(
            after: duration, cancellingSource: cancellingSource, fileID: fileID, line: line,
            failure: { $0 }, timedOut: { $0 })
    }
}
