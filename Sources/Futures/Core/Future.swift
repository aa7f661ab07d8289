public import Synchronization

/// A value that is still being computed, and that stands in for it once it exists.
///
/// A future resolves exactly once, to a `Result<Value, Failure>`. Create one with
/// ``BackgroundFuture`` (starts at once), ``LazyFuture`` (starts on first read) or
/// ``Promise`` (completed by your code); read it with ``value`` (blocking) or ``get()``
/// (suspending).
///
/// ```swift
/// let data = BackgroundFuture { try Data(contentsOf: url) }   // Future<Data, any Error>
/// prepareTheView()                                             // runs while data loads
/// show(try data.value)                                         // waits only if it must
/// ```
///
/// Reading a resolved future takes no lock: one acquiring atomic load, then the stored result.
/// Threads that must wait park on a condition shared through a striped table, so a future
/// carries no lock of its own.
///
/// `Future` is the base class of ``BackgroundFuture`` and ``LazyFuture``; it is `public` but not
/// `open`: the kinds of future are fixed by this library.
public class Future<Value: Sendable, Failure: Error>: _FutureWithSlot<_FutureSlot<Value, Failure>>,
    _FutureReading, @unchecked Sendable
{
    // @unchecked: the slot (`_slot`, in `_FutureWithSlot`) is guarded by the state word's phases;
    // the rest is `_FutureCore`'s.

    // The path from creation to the first read of a lazy future — this initializer, the claim,
    // the run and the completion — is inlinable, like the read itself, so that a client runs it
    // specialized for its types (gated: lazy create+read).

    /// A pending future of `kind`, with `work` to run if it has work of its own.
    @inlinable
    init(
        kind: FutureKind,
        links: FutureLinks = .none,
        work: (@Sendable () throws(Failure) -> Value)?,
        fileID: StaticString,
        line: UInt
    ) {
        super.init(
            slot: work.map { .work($0) } ?? .empty,
            state: .initial(kind: kind, links: links, fileID: fileID, line: line),
            links: links.orSite(fileID))
    }

    /// A future whose slot holds `work` from the start: a lazy or background future.
    ///
    /// Separate from the initializer above so that the closure moves into the slot: through
    /// `Optional.map`, the caller retained the closure's context to store it and released it
    /// after, two atomic operations on every lazy future's creation.
    @inlinable
    init(
        kind: FutureKind,
        links: FutureLinks = .none,
        work: __owned @escaping @Sendable () throws(Failure) -> Value,
        fileID: StaticString,
        line: UInt
    ) {
        super.init(
            slot: .work(work), state: .initial(kind: kind, links: links, fileID: fileID, line: line),
            links: links.orSite(fileID))
    }

    /// A future resolved with `result` from the start. Inlinable, as `init(kind:…)` is: made
    /// unspecialized, it asked the runtime for the slot's and the result's metadata each time,
    /// which was most of the cost of a `flatMap` step that returns `Future(value:)`.
    @inlinable
    init(resolved result: Result<Value, Failure>, fileID: StaticString, line: UInt) {
        var state = StateWord.initial(kind: .promise, links: .none, fileID: fileID, line: line)
        state.phase = .resolved
        if case .success = result { state.raw |= StateWord.succeededBit }
        super.init(slot: _FutureSlot(result), state: state, links: .site(fileID))
    }

    override final func _resolveWaitingOnItself() {
        _failWaitingOnItself()
    }

    override final func _erasedFailureOfResolved() -> (any Error)? {
        _erasedFailure
    }

    // MARK: Reading

    /// The value of a future that resolved with one; `nil` for anything else (unresolved, failed,
    /// cancelled), which the callers look at again off the read path.
    ///
    /// One acquiring load of the state word: its `succeeded` bit is set in the same atomic step
    /// that publishes the slot, after which the slot never changes. `_fastPath` keeps the resolved
    /// case in line (gated: resolved read).
    @inlinable
    public final var _successOnTheReadPath: Value? {
        if _fastPath(~_state.load(ordering: .acquiring) & StateWord.resolvedWithValue == 0),
            case .success(let value) = _slot
        {
            return value
        }
        return nil
    }

    /// The result if the future is resolved; never blocks, never starts work.
    @inlinable
    final var _resolvedResult: Result<Value, Failure>? {
        if let value = _successOnTheReadPath { return .success(value) }
        return _resolvedResultAfterTheReadPath
    }

    /// The result if the future is resolved, looked at off the read path: a failure, a
    /// cancellation, a success that arrived since the first look, or `nil`.
    @inlinable
    public final var _resolvedResultAfterTheReadPath: Result<Value, Failure>? {
        let word = StateWord(raw: _state.load(ordering: .acquiring))
        guard word.isResolved else { return nil }
        return _outcome(resolvedAs: word)
    }

    /// The outcome of a future whose word, loaded with acquiring order, is `word`, resolved.
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

    /// The result of a future that was not resolved at the read path's look: the result if it is
    /// resolved now, otherwise what running or waiting for the work gives. One load of the word
    /// serves both looks.
    @inlinable
    public final func _resultAfterTheReadPath() -> Result<Value, Failure> {
        let word = StateWord(raw: _state.load(ordering: .acquiring))
        if word.isResolved { return _outcome(resolvedAs: word) }
        return _resultAfterRunningOrWaiting(from: word)
    }

    /// The result of a future resolved by cancellation, which only a future whose `Failure` is
    /// `any Error` can be: its slot says nothing (a cancelled running future's slot belongs to
    /// the runner), the `cancelled` bit says it all.
    @usableFromInline
    final var _cancellationResult: Result<Value, Failure> {
        guard let error = CancellationError() as any Error as? Failure else {
            preconditionFailure("\(_description) was resolved by cancellation, which its error type cannot hold")
        }
        return .failure(error)
    }

    /// The result of a future known to be resolved.
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
    /// A lazy future's work is started on the global context, so that this call can keep its
    /// deadline; it goes on if the read times out, and a later read finds its result.
    /// A zero or negative `timeout` never waits: it is ``peek`` that also starts lazy work.
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

    /// "LazyFuture<Int>" or "BackgroundFuture<Data, any Error>", for messages.
    override var _typeDescription: String {
        let kind = _kind.className
        if Failure.self == Never.self { return "\(kind)<\(Value.self)>" }
        // The runtime spells the existential `Error`; Swift 6 source spells it `any Error`.
        let failure = _isAnyError(Failure.self) ? "any Error" : "\(Failure.self)"
        return "\(kind)<\(Value.self), \(failure)>"
    }
}
