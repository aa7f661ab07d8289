/// Returns a future of the values of all `futures`, as a tuple, once they have all succeeded.
///
/// Any number of futures of different value types, with one `Failure`. The child fails with the
/// first failure by position, once every future before it has succeeded; lazy if any is lazy.
///
/// ```swift
/// let page = zip(user, posts, settings)   // Future<(User, [Post], Settings), any Error>
/// let (who, what, how) = try page.value
/// ```
/// - Parameters:
///   - futures: The futures to wait for.
///   - fileID: Leave the default: see <doc:CreationSites>.
///   - line: Leave the default.
/// - Returns: A future of the tuple of their values.
@inlinable
public func zip<each V: Sendable, Failure: Error>(
    _ futures: repeat Future<each V, Failure>,
    fileID: StaticString = #fileID, line: UInt = #line
) -> Future<(repeat each V), Failure> {
    _zipOfEach(repeat each futures, fileID: fileID, line: line)
}

/// Returns a future of the values of `first` and `second`, as a pair, once both have succeeded.
///
/// ``zip(_:fileID:line:)`` of two: fails with `first`'s failure, or with `second`'s once `first`
/// has succeeded; lazy if either is.
///
/// ```swift
/// let profile = zip(user, avatar)   // Future<(User, Image), any Error>
/// let (who, picture) = try profile.value
/// ```
/// - Parameters:
///   - first: The first future to wait for.
///   - second: The second future to wait for.
///   - fileID: Leave the default: see <doc:CreationSites>.
///   - line: Leave the default.
/// - Returns: A future of the pair of their values.
@inlinable
public func zip<A: Sendable, B: Sendable, Failure: Error>(
    _ first: Future<A, Failure>,
    _ second: Future<B, Failure>,
    fileID: StaticString = #fileID, line: UInt = #line
) -> Future<(A, B), Failure> {
    // One object (`_ZipPairStep`) holds the child's links, both callbacks and what has arrived
    // (gated: zip of two pending promises). Of a lazy source the step is parked on first demand.
    let lazy = first._isLazyKind || second._isLazyKind
    if !lazy, first._isResolvedForDerivingAtOnce, second._isResolvedForDerivingAtOnce {
        // Decided now, as the callbacks would at once: no links, no callbacks.
        let child = Future<(A, B), Failure>(kind: .derived, links: .none, work: nil, fileID: fileID, line: line)
        switch (first._result, second._result) {
        case (.failure(let error), _):
            child.resolve(with: .failure(error), sourceCancelled: first._isCancelled)
        case (.success, .failure(let error)):
            child.resolve(with: .failure(error), sourceCancelled: second._isCancelled)
        case (.success(let a), .success(let b)):
            child.resolve(with: .success((a, b)))
        }
        return child
    }
    let step = _ZipPairStep(first: first, second: second) { child, decision in
        let child = unsafeDowncast(child, to: Future<(A, B), Failure>.self)
        switch decision {
        case .firstFailed(let source):
            child._resolveIfFailed(unsafeDowncast(source, to: Future<A, Failure>.self))
        case .secondFailed(let source):
            child._resolveIfFailed(unsafeDowncast(source, to: Future<B, Failure>.self))
        case .succeeded(let a, let b):
            child.resolve(
                with: .success(
                    (
                        unsafeDowncast(a, to: Future<A, Failure>.self)._successValueUnchecked,
                        unsafeDowncast(b, to: Future<B, Failure>.self)._successValueUnchecked
                    )))
        }
    }
    if lazy {
        step.connectOnDemandLater(first: first, second: second)
        return Future<(A, B), Failure>(kind: .lazyDerived, links: .holding(step), work: nil, fileID: fileID, line: line)
    }
    let child = Future<(A, B), Failure>(kind: .derived, links: .holding(step), work: nil, fileID: fileID, line: line)
    step.attach(child)
    let firstRegistration = first._addResolutionCallback(parked: .step(step))
    let secondRegistration = second._addResolutionCallback(parked: .step(step))
    // Taken back at once if decided meanwhile (a failed first leaves nothing on the second).
    step.keep(firstRegistration, secondRegistration)
    return child
}

/// `zip` of any number of futures, one callback each (`_connectFanIn`). Internal; inlinable
/// because `zip` is, so the steps are specialized for the caller: no run-time metadata lookups.
@inlinable
func _zipOfEach<each V: Sendable, Failure: Error>(
    _ futures: repeat Future<each V, Failure>,
    fileID: StaticString, line: UInt
) -> Future<(repeat each V), Failure> {
    var collected: [_FutureCore] = []
    for future in repeat each futures { collected.append(future) }
    let sources = collected
    return Future(derivingFrom: sources, fileID: fileID, line: line) { child in
        child._connectFanIn(
            sources,
            failed: { failure, cancelled in child.resolve(with: .failure(failure as! Failure), sourceCancelled: cancelled) },
            succeeded: { sources in child.resolve(with: .success(_zipValues(of: sources, as: Failure.self))) })
    }
}

/// The values of a zip's sources, all succeeded, as its tuple. The sources name no pack type:
/// a loop over a pack runs unspecialized, each type named a metadata lookup.
@inlinable
func _zipValues<each V: Sendable, Failure: Error>(of sources: [_FutureCore], as failure: Failure.Type)
    -> (repeat each V)
{
    var position = 0
    func next<Value: Sendable>(_ type: Value.Type) -> Value {
        defer { position += 1 }
        return unsafeDowncast(sources[position], to: Future<Value, Failure>.self)._successValueUnchecked
    }
    return (repeat next((each V).self))
}

/// Rejects futures of different error types: see the message.
///
/// ```swift
/// let three = LazyFuture { 3 }                                  // Future<Int, Never>
/// let title = BackgroundFuture { () throws -> String in "Futures" }
/// let both = zip(three.eraseFailure(), title)                   // Future<(Int, String), any Error>
/// ```
/// - Parameters:
///   - futures: Unused.
///   - fileID: Unused.
///   - line: Unused.
/// - Returns: Never returns.
@available(
    *, unavailable,
    message:
        "zip needs futures of one error type; widen one that cannot fail with 'setFailureType(to:)' or 'eraseFailure()', and convert others with 'mapError'"
)
public func zip<each V: Sendable, each Failure: Error>(
    _ futures: repeat Future<each V, each Failure>,
    fileID: StaticString = #fileID, line: UInt = #line
) -> Future<(repeat each V), any Error> {
    preconditionFailure("unavailable")
}

extension Future {
    /// Returns a future of the values of all `futures`, in their order.
    ///
    /// The child fails with the first failure by position, once every future before it has
    /// succeeded; lazy if any is. Resolution is iterative: no stack depth per future.
    ///
    /// ```swift
    /// let pages = Future.all(urls.map { url in BackgroundFuture { try download(url) } })
    /// for page in try pages.value { index(page) }
    /// ```
    /// - Parameters:
    ///   - futures: The futures to wait for; none gives an empty array at once.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    /// - Returns: A future of their values, in order.
    @inlinable
    public static func all(
        _ futures: [Future<Value, Failure>],
        fileID: StaticString = #fileID, line: UInt = #line
    ) -> Future<[Value], Failure> {
        if let decided = _allDecidedAtOnce(futures, fileID: fileID, line: line) { return decided }
        return _allConnected(futures, fileID: fileID, line: line)
    }

    /// `all(_:)` resolved when made, when no source is lazy and the callbacks would decide at once
    /// (all succeeded, or a failure after all before it succeeded); `nil` otherwise.
    @inlinable
    static func _allDecidedAtOnce(
        _ futures: [Future<Value, Failure>],
        fileID: StaticString, line: UInt
    ) -> Future<[Value], Failure>? {
        // Checked before any allocation: a pending `all`, the common case, leaves here.
        guard !futures.isEmpty, futures.allSatisfy({ $0._isResolvedForDerivingAtOnce }) else { return nil }
        var values: [Value] = []
        var decided: (failure: Failure, cancelled: Bool)?
        values.reserveCapacity(futures.count)
        for future in futures {
            switch future._result {
            case .success(let value):
                values.append(value)
            case .failure(let error):
                if decided == nil { decided = (error, future._isCancelled) }
            }
        }
        let child = Future<[Value], Failure>(kind: .derived, links: .none, work: nil, fileID: fileID, line: line)
        if let decided {
            child.resolve(with: .failure(decided.failure), sourceCancelled: decided.cancelled)
        } else {
            child.resolve(with: .success(values))
        }
        return child
    }

    /// `all(_:)` of pending or lazy futures: a callback on each, specialized in the client.
    @inlinable
    static func _allConnected(
        _ futures: [Future<Value, Failure>],
        fileID: StaticString, line: UInt
    ) -> Future<[Value], Failure> {
        guard !futures.isEmpty else {
            return Future<[Value], Failure>(resolved: .success([]), fileID: fileID, line: line)
        }
        return Future<[Value], Failure>(derivingFrom: futures, fileID: fileID, line: line) { child in
            child._connectFanIn(
                futures,
                failed: { failure, cancelled in
                    child.resolve(with: .failure(failure as! Failure), sourceCancelled: cancelled)
                },
                succeeded: { sources in
                    child.resolve(
                        with: .success(
                            sources.map { unsafeDowncast($0, to: Future<Value, Failure>.self)._successValueUnchecked }))
                })
        }
    }

    /// Returns a future of the first of `futures` to resolve, succeeding or failing.
    ///
    /// The losers' callbacks are taken back once the first resolves: a long-pending loser
    /// keeps nothing of the race.
    ///
    /// ```swift
    /// let fastest = Future.first(of: mirrors.map { mirror in BackgroundFuture { try fetch(from: mirror) } })
    /// ```
    /// - Parameters:
    ///   - futures: The futures to race; there must be at least one.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    /// - Returns: A future resolved like the first of them to resolve.
    public static func first(
        of futures: [Future<Value, Failure>],
        fileID: StaticString = #fileID, line: UInt = #line
    ) -> Future<Value, Failure> {
        guard !futures.isEmpty else { _firstOfNoFutures(fileID: fileID, line: line) }
        return Future(derivingFrom: futures, fileID: fileID, line: line) { child in
            // The losers' callbacks go when the first decides (`keep`).
            for future in futures {
                child.keep(
                    future._addResolutionCallback { source in
                        let future = unsafeDowncast(source, to: Future<Value, Failure>.self)
                        child.resolve(with: future._result, sourceCancelled: future._isCancelled)
                    })
            }
        }
    }

    static func _firstOfNoFutures(fileID: StaticString, line: UInt) -> Never {
        misuse(
            "Future.first(of:) needs at least one future; it was given none (with none, nothing could resolve it)",
            file: fileID, line: line)
    }

    /// The value of a future known to have succeeded.
    ///
    /// Names no type but the slot's: unspecialized (per element of a `zip` pack), each type named
    /// is a metadata lookup.
    @inlinable
    var _successValueUnchecked: Value {
        guard _hasSucceeded, case .success(let value) = _slot else { _expectedToHaveSucceeded() }
        return value
    }

    @usableFromInline
    func _expectedToHaveSucceeded() -> Never {
        preconditionFailure("\(_typeDescription) was expected to have succeeded")
    }
}
