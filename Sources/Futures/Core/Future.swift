public import Synchronization

/// A value that is still being computed, and that stands in for it once it exists.
///
/// A future resolves exactly once, to a `Result<Value, Failure>`. Create one with ``BackgroundFuture``,
/// ``LazyFuture`` or ``Promise``; read it with ``value`` (blocking) or ``get()`` (suspending).
///
/// ```swift
/// let data = BackgroundFuture { try Data(contentsOf: url) }   // Future<Data, any Error>
/// prepareTheView()                                             // runs while data loads
/// show(try data.value)                                         // waits only if it must
/// ```
///
/// A resolved read takes no lock (one acquiring load); waiters park on a striped table. `public`,
/// not `open`: the kinds are fixed.
public class Future<Value: Sendable, Failure: Error>: _FutureWithSlot<_FutureSlot<Value, Failure>>,
    _FutureReading, @unchecked Sendable
{
    // @unchecked: `_slot` is guarded by the state word's phases; the rest is `_FutureCore`'s.

    // Creation, claim, run and completion are inlinable like the read, so a client runs them
    // specialized (gated: lazy create+read).

    @inlinable
    init(
        kind: FutureKind,
        links: FutureLinks = .none,
        work: (@Sendable () throws(Failure) -> Value)?,
        fileID: StaticString, line: UInt
    ) {
        super.init(
            slot: work.map { .work($0) } ?? .empty,
            state: .initial(kind: kind, links: links, fileID: fileID, line: line),
            links: links.orSite(fileID))
    }

    /// Separate from the initializer above so the closure moves into the slot (through
    /// `Optional.map` its context was retained and released on every lazy creation).
    @inlinable
    init(
        kind: FutureKind,
        links: FutureLinks = .none,
        work: __owned @escaping @Sendable () throws(Failure) -> Value,
        fileID: StaticString, line: UInt
    ) {
        super.init(
            slot: .work(work), state: .initial(kind: kind, links: links, fileID: fileID, line: line),
            links: links.orSite(fileID))
    }

    /// Inlinable: unspecialized, it looked up the slot's and the result's metadata on every
    /// `flatMap` step returning `Future(value:)`.
    @inlinable
    init(resolved result: Result<Value, Failure>, fileID: StaticString, line: UInt) {
        var state = StateWord.initial(kind: .promise, links: .none, fileID: fileID, line: line)
        state.phase = .resolved
        if case .success = result { state.raw |= StateWord.succeededBit }
        super.init(slot: _FutureSlot(result), state: state, links: .site(fileID))
    }

    override final func _resolveWaitingOnItself() { _failWaitingOnItself() }

    override final func _erasedFailureOfResolved() -> (any Error)? { _erasedFailure }

    // MARK: Reading

    /// The value if resolved with one; otherwise `nil` and the caller looks again off the read path.
    /// One acquiring load: `succeeded` is set in the same atomic step that publishes the slot, which
    /// then never changes (gated: resolved read).
    @inlinable
    public final var _successOnTheReadPath: Value? {
        if _fastPath(~_state.load(ordering: .acquiring) & StateWord.resolvedWithValue == 0),
            case .success(let value) = _slot
        {
            return value
        }
        return nil
    }

    @inlinable
    final var _resolvedResult: Result<Value, Failure>? {
        if let value = _successOnTheReadPath { return .success(value) }
        return _resolvedResultAfterTheReadPath
    }

    /// Off the read path: a failure, a cancellation, a late success, or `nil`.
    @inlinable
    public final var _resolvedResultAfterTheReadPath: Result<Value, Failure>? {
        let word = StateWord(raw: _state.load(ordering: .acquiring))
        guard word.isResolved else { return nil }
        return _outcome(resolvedAs: word)
    }

    /// `word` was loaded with acquiring order and is resolved.
    @inlinable
    final func _outcome(resolvedAs word: StateWord) -> Result<Value, Failure> {
        if word.isCancelled { return _cancellationResult }
        switch _slot {
        case .success(let value): return .success(value)
        case .failure(let error): return .failure(error)
        case .work, .empty: _resolvedWithoutOutcome()
        }
    }

    @usableFromInline
    final func _resolvedWithoutOutcome() -> Never {
        preconditionFailure("\(_description) was resolved without an outcome")
    }

    /// After a read-path miss; one load of the word serves both looks.
    @inlinable
    public final func _resultAfterTheReadPath() -> Result<Value, Failure> {
        let word = StateWord(raw: _state.load(ordering: .acquiring))
        if word.isResolved { return _outcome(resolvedAs: word) }
        return _resultAfterRunningOrWaiting(from: word)
    }

    /// Only a future whose `Failure` is `any Error` can be cancelled; its slot may still belong to
    /// the runner, so the `cancelled` bit alone gives the result.
    @usableFromInline
    final var _cancellationResult: Result<Value, Failure> {
        guard let error = CancellationError() as any Error as? Failure else {
            preconditionFailure("\(_description) was resolved by cancellation, which its error type cannot hold")
        }
        return .failure(error)
    }

    @inlinable
    final var _result: Result<Value, Failure> {
        guard let result = _resolvedResult else {
            preconditionFailure("the result of a future was read before it resolved")
        }
        return result
    }

    /// Whether the future is resolved. Never blocks and never starts work.
    ///
    /// ```swift
    /// if table.isResolved { print("already built") }
    /// ```
    @inlinable
    public final var isResolved: Bool { _isResolved }

    /// The result, or `nil` if the future does not resolve within `timeout`.
    ///
    /// A lazy future's work starts on the global context so the deadline holds; it goes on after a
    /// timeout. A zero or negative `timeout` is ``peek`` that also starts lazy work.
    ///
    /// ```swift
    /// if let result = thumbnail.result(timeout: .milliseconds(50)) { show(result) }
    /// ```
    /// - Parameter timeout: The longest this call waits.
    /// - Important: Blocks the calling thread for up to `timeout`.
    @available(*, noasync, message: "a blocking read can starve Swift's cooperative pool; use 'await future.get()'")
    public func result(timeout: Duration) -> Result<Value, Failure>? {
        if let result = _resolvedResult { return result }
        startWithoutBlocking()
        return waitUntilResolved(deadline: .now + timeout) ? _result : nil
    }

    override var _typeDescription: String {
        let kind = _kind.className
        if Failure.self == Never.self { return "\(kind)<\(Value.self)>" }
        // The runtime spells the existential `Error`; Swift 6 source spells it `any Error`.
        let failure = _isAnyError(Failure.self) ? "any Error" : "\(Failure.self)"
        return "\(kind)<\(Value.self), \(failure)>"
    }
}
