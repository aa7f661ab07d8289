extension Future {
    /// Returns a future of this future's value combined with the value of each of `futures` in
    /// turn, by `combine`, which returns a future of the running result.
    ///
    /// `combine` runs once per element, in order, with the running result (this future's value
    /// first) and the next value. The new future fails at the first failure of any source or of a
    /// future from `combine`, even while earlier ones are pending; it is lazy if any source is.
    ///
    /// ```swift
    /// let report = header.fold(sections) { report, section in
    ///     BackgroundFuture { report.appending(render(section)) }
    /// }
    /// ```
    /// - Parameters:
    ///   - futures: The futures whose values are combined, in order; none gives this future's
    ///     result.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - combine: Makes a future of the next running result from the running result and the
    ///     next value. It must not block; it may throw `Failure`.
    /// - Returns: A future of the last running result.
    @_disfavoredOverload
    public func fold<Element: Sendable>(
        _ futures: [Future<Element, Failure>],
        fileID: StaticString = #fileID, line: UInt = #line,
        with combine: @escaping @Sendable (Value, Element) throws(Failure) -> Future<Value, Failure>
    ) -> Future<Value, Failure> {
        var running: Future<Value, Failure> = self
        // Cancelled with the new future, so a cancel lets go of `combine` at once.
        var chain: [_FutureCore] = []
        for future in futures {
            running = zip(running, future, fileID: fileID, line: line)
                .flatMap(fileID: fileID, line: line) { (pair) throws(Failure) -> Future<Value, Failure> in
                    try combine(pair.0, pair.1)
                }
            if _isAnyError(Failure.self) { chain.append(running) }
        }
        // The chain fails by position; this future fails fast: at the first failure of any source.
        let end = running
        let sources: [_FutureCore] = [self] + futures
        let chainToCancel = chain
        return .init(derivingFrom: [end] + sources, fileID: fileID, line: line) { child in
            if !chainToCancel.isEmpty {
                child._cancelWhenDecided(chainToCancel) {
                    unsafeDowncast($0, to: Future<Value, Failure>.self)._cancelIfCancellable()
                }
            }
            // A failure decides early; the callbacks on the sources still pending go then (`keep`).
            child.keep(
                end._onResolution { end in
                    child.resolve(with: end._result, sourceCancelled: end._isCancelled)
                })
            child.keep(self._onResolution { source in child._resolveIfFailed(source) })
            for future in futures {
                child.keep(future._onResolution { source in child._resolveIfFailed(source) })
            }
        }
    }

    /// Returns a future of this future's value combined with the value of each of `futures` in
    /// turn; `combine` does not throw.
    ///
    /// ```swift
    /// let total = Future(value: 0).fold(counts) { sum, count in Future(value: sum + count) }
    /// ```
    /// - Parameters:
    ///   - futures: The futures whose values are combined, in order.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - combine: Makes a future of the next running result. It must not block.
    /// - Returns: A future of the last running result.
    public func fold<Element: Sendable>(
        _ futures: [Future<Element, Failure>],
        fileID: StaticString = #fileID, line: UInt = #line,
        with combine: @escaping @Sendable (Value, Element) -> Future<Value, Failure>
    ) -> Future<Value, Failure> {
        fold(futures, fileID: fileID, line: line) { (value, element) throws(Failure) in combine(value, element) }
    }

    /// Returns a future of `initial` combined with the values of all `futures`, in their order,
    /// by `next`.
    ///
    /// The new future fails at the first failure, even while earlier ones are pending. Once all
    /// succeed, `next` runs per value, in order, on the thread that resolved the last; lazy if any
    /// source is. SwiftNIO's `reduce(_:_:on:_:)`.
    ///
    /// ```swift
    /// let total = Future.reduce(0, sizes) { $0 + $1 }      // sizes: [Future<Int, any Error>]
    /// ```
    /// - Parameters:
    ///   - initial: The running result to start from; the result if `futures` is empty.
    ///   - futures: The futures whose values are combined.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - next: Makes the next running result from the running result and a value. It must not
    ///     block; it may throw `Failure`.
    /// - Returns: A future of the final running result.
    @_disfavoredOverload
    public static func reduce<Element: Sendable>(
        _ initial: Value,
        _ futures: [Future<Element, Failure>],
        fileID: StaticString = #fileID, line: UInt = #line,
        _ next: @escaping @Sendable (Value, Element) throws(Failure) -> Value
    ) -> Future<Value, Failure> {
        reduce(into: initial, futures, fileID: fileID, line: line) { (running: inout Value, element) throws(Failure) in
            running = try next(running, element)
        }
    }

    /// Returns a future of `initial` combined with the values of all `futures`, in their order;
    /// `next` does not throw.
    ///
    /// ```swift
    /// let longest = Future.reduce("", names) { $0.count >= $1.count ? $0 : $1 }
    /// ```
    /// - Parameters:
    ///   - initial: The running result to start from.
    ///   - futures: The futures whose values are combined.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - next: Makes the next running result. It must not block.
    /// - Returns: A future of the final running result.
    public static func reduce<Element: Sendable>(
        _ initial: Value,
        _ futures: [Future<Element, Failure>],
        fileID: StaticString = #fileID, line: UInt = #line,
        _ next: @escaping @Sendable (Value, Element) -> Value
    ) -> Future<Value, Failure> {
        reduce(initial, futures, fileID: fileID, line: line) { (running, element) throws(Failure) in
            next(running, element)
        }
    }

    /// Returns a future of `initial` updated with the values of all `futures`, in their order,
    /// by `update`, which changes the running result in place.
    ///
    /// As `reduce(_:_:_:)` without copying the running result: use it to build a collection.
    ///
    /// ```swift
    /// let index = Future.reduce(into: [String: Int](), pages) { index, page in
    ///     index[page.title] = page.number
    /// }
    /// ```
    /// - Parameters:
    ///   - initial: The running result to start from; the result if `futures` is empty.
    ///   - futures: The futures whose values are combined.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - update: Changes the running result with a value. It must not block; it may throw
    ///     `Failure`.
    /// - Returns: A future of the final running result.
    @_disfavoredOverload
    public static func reduce<Element: Sendable>(
        into initial: Value,
        _ futures: [Future<Element, Failure>],
        fileID: StaticString = #fileID, line: UInt = #line,
        _ update: @escaping @Sendable (inout Value, Element) throws(Failure) -> Void
    ) -> Future<Value, Failure> {
        guard !futures.isEmpty else {
            return Future(resolved: .success(initial), fileID: fileID, line: line)
        }
        // Values are read once all have arrived (`ArrivedSources` records successes only: a
        // failure decides at once).
        return .init(derivingFrom: futures, fileID: fileID, line: line) { child in
            let arrived = ArrivedSources.make(count: futures.count, failuresDecide: false)
            // A failure decides early; the callbacks on the sources still pending go then (`keep`).
            for (index, future) in futures.enumerated() {
                child.keep(
                    future._addResolutionCallback { source in
                        let future = unsafeDowncast(source, to: Future<Element, Failure>.self)
                        guard future._hasSucceeded else {
                            child._resolveIfFailed(future)
                            return
                        }
                        guard case .succeeded(let sources) = arrived.record(future, at: index) else {
                            return
                        }
                        child.resolve { () throws(Failure) -> Value in
                            var running = initial
                            for source in sources {
                                let value = unsafeDowncast(source, to: Future<Element, Failure>.self)
                                try update(&running, value._successValueUnchecked)
                            }
                            return running
                        }
                    })
            }
        }
    }

    /// Returns a future of `initial` updated with the values of all `futures`, in their order;
    /// `update` does not throw.
    ///
    /// ```swift
    /// let words = Future.reduce(into: Set<String>(), pages) { words, page in words.formUnion(page.words) }
    /// ```
    /// - Parameters:
    ///   - initial: The running result to start from.
    ///   - futures: The futures whose values are combined.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - update: Changes the running result with a value. It must not block.
    /// - Returns: A future of the final running result.
    public static func reduce<Element: Sendable>(
        into initial: Value,
        _ futures: [Future<Element, Failure>],
        fileID: StaticString = #fileID, line: UInt = #line,
        _ update: @escaping @Sendable (inout Value, Element) -> Void
    ) -> Future<Value, Failure> {
        reduce(into: initial, futures, fileID: fileID, line: line) { (running: inout Value, element) throws(Failure) in
            update(&running, element)
        }
    }
}
