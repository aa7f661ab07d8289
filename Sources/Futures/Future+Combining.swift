/// Returns a future of the values of all `futures`, as a tuple, once they have all succeeded.
///
/// Any number of futures of different value types can be zipped; they share one `Failure`
/// type. If some fail, the child fails with the failure of the first one by position, as soon
/// as every future before it has succeeded. If any of them is lazy, the child is lazy.
///
/// ```swift
/// let page = zip(user, posts, settings)   // Future<(User, [Post], Settings), any Error>
/// let (who, what, how) = try page.value
/// ```
/// - Parameters:
///   - futures: The futures to wait for.
///   - fileID: The file that makes the future, named in trap messages and debug descriptions;
///     leave the default.
///   - line: The line that makes the future, likewise; leave the default.
/// - Returns: A future of the tuple of their values.
public func zip<each V: Sendable, Failure: Error>(
    _ futures: repeat Future<each V, Failure>,
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> Future<(repeat each V), Failure> {
    var collected: [_FutureCore] = []
    for future in repeat each futures { collected.append(future) }
    let sources = collected
    let lazy = sources.contains { $0._kind.isLazy }
    let zipped = ZippedFutures(repeat each futures)
    return Future(derivingFrom: sources, lazy: lazy, fileID: fileID, line: line) { child in
        for source in sources {
            source.addResolutionCallback { _ in zipped.resolveIfDecided(child) }
        }
    }
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
    fileID: StaticString = #fileID,
    line: UInt = #line
) -> Future<(repeat each V), any Error> {
    preconditionFailure("unavailable")
}

/// The futures of one `zip` call, kept as a tuple so that closures capture one plain value.
private struct ZippedFutures<each V: Sendable, Failure: Error>: Sendable {
    let futures: (repeat Future<each V, Failure>)

    init(_ futures: repeat Future<each V, Failure>) {
        self.futures = (repeat each futures)
    }

    /// Resolves `child` once the outcome is known: all succeeded, or the first failure by
    /// position has only successes before it.
    func resolveIfDecided(_ child: Future<(repeat each V), Failure>) {
        for future in repeat each futures {
            guard let result = future._resolvedResult else { return }
            if case .failure(let error) = result {
                child.resolve(with: .failure(error), sourceCancelled: future._isCancelled)
                return
            }
        }
        child.resolve(with: .success((repeat (each futures)._successValueUnchecked)))
    }
}

/// The progress of `Future.all`: how many futures, from the first, have succeeded; once the
/// outcome is decided it moves past the end, so that exactly one callback resolves the child.
private final class AllProgress: Sendable {
    enum Decision { case undecided, failed(at: Int), succeeded }

    private let prefix = LockedBox(0)
    private let count: Int

    init(count: Int) { self.count = count }

    /// Advances over the resolved futures at the front; returns the decision this call made.
    func advance<Value, Failure>(over futures: [Future<Value, Failure>]) -> Decision {
        prefix.withLock { prefix in
            while prefix < count, let result = futures[prefix]._resolvedResult {
                if case .failure = result {
                    defer { prefix = count + 1 }
                    return .failed(at: prefix)
                }
                prefix += 1
            }
            guard prefix == count else { return .undecided }
            prefix = count + 1
            return .succeeded
        }
    }
}

extension Future {
    /// Returns a future of the values of all `futures`, in their order.
    ///
    /// The child fails with the failure of the first future by position that fails, as soon as
    /// every future before it has succeeded. It is lazy if any of `futures` is lazy. Resolution
    /// is iterative: 10,000 futures cost no stack depth.
    ///
    /// ```swift
    /// let pages = Future.all(urls.map { url in BackgroundFuture { try download(url) } })
    /// for page in try pages.value { index(page) }
    /// ```
    /// - Parameters:
    ///   - futures: The futures to wait for; none gives an empty array at once.
    ///   - fileID: The file that makes the future, named in trap messages and debug descriptions;
    ///     leave the default.
    ///   - line: The line that makes the future, likewise; leave the default.
    /// - Returns: A future of their values, in order.
    public static func all(
        _ futures: [Future<Value, Failure>],
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<[Value], Failure> {
        guard !futures.isEmpty else {
            return Future<[Value], Failure>(resolved: .success([]), fileID: fileID, line: line)
        }
        let lazy = futures.contains { $0._isLazyKind }
        return Future<[Value], Failure>(derivingFrom: futures, lazy: lazy, fileID: fileID, line: line) { child in
            let progress = AllProgress(count: futures.count)
            let advance: @Sendable () -> Void = {
                switch progress.advance(over: futures) {
                case .undecided:
                    break
                case .failed(let index):
                    let failed = futures[index]
                    child.resolve(
                        with: failed._resolvedResult.unsafelyUnwrapped.map { [$0] },
                        sourceCancelled: failed._isCancelled)
                case .succeeded:
                    child.resolve(with: .success(futures.map { $0._successValueUnchecked }))
                }
            }
            for future in futures { future._onResolution { _ in advance() } }
        }
    }

    /// Returns a future of the first of `futures` to resolve, succeeding or failing.
    ///
    /// ```swift
    /// let fastest = Future.first(of: mirrors.map { mirror in BackgroundFuture { try fetch(from: mirror) } })
    /// ```
    /// - Parameters:
    ///   - futures: The futures to race; there must be at least one.
    ///   - fileID: The file that makes the future, named in trap messages and debug descriptions;
    ///     leave the default.
    ///   - line: The line that makes the future, likewise; leave the default.
    /// - Returns: A future resolved like the first of them to resolve.
    public static func first(
        of futures: [Future<Value, Failure>],
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<Value, Failure> {
        precondition(!futures.isEmpty, "Future.first(of:) needs at least one future; it was given none")
        let lazy = futures.contains { $0._isLazyKind }
        return Future(derivingFrom: futures, lazy: lazy, fileID: fileID, line: line) { child in
            for future in futures {
                future._onResolution { future in
                    child.resolve(
                        with: future._result, sourceCancelled: future._isCancelled)
                }
            }
        }
    }

    /// The value of a future known to have succeeded.
    var _successValueUnchecked: Value {
        guard case .success(let value) = _result else {
            preconditionFailure("\(_typeDescription) was expected to have succeeded")
        }
        return value
    }
}
