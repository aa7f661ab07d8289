public import Synchronization

/// A value that is still being computed, and that stands in for it once it exists.
///
/// A future resolves exactly once, to a `Result<Value, Failure>`. Create one with
/// ``BackgroundFuture`` (starts at once), ``LazyFuture`` (starts on first read) or
/// ``Promise`` (completed by your code); read it with ``value-7gkma`` (blocking) or ``get()``
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
public class Future<Value: Sendable, Failure: Error>: @unchecked Sendable {
    // @unchecked: `_outcome` is written once, by the one thread that moved the phase to
    // `completing`, before it publishes `resolved` with a releasing store; it is read only after
    // an acquiring load sees `resolved`. `_work` is touched only by the thread that moved the
    // phase out of `pending`, or the one it handed the run to (the runner takes it; a canceller
    // drops it).

    /// Phase, flags and creation site; see `StateWord`.
    @usableFromInline let _state: Atomic<UInt64>
    /// The work, until it is claimed or dropped.
    ///
    /// Exclusivity is not checked at run time on this slot and on `_outcome`: the state word's
    /// phases already give one thread at a time access to each (see above), and the dynamic check
    /// cost about 230 instructions per lazy future, more than its claim, run and completion.
    @exclusivity(unchecked) @usableFromInline final var _work: (@Sendable () throws(Failure) -> Value)?
    /// The result, once the future is resolved; set once.
    @exclusivity(unchecked) @usableFromInline final var _outcome: Outcome<Value, Failure>

    // The path from creation to the first read of a lazy future — this initializer, the claim,
    // the run and the completion — is inlinable, like the read itself: across the module
    // boundary, unspecialized generic code asks the runtime for the metadata of the result's
    // type each time it touches the result (BENCHMARKS.md).

    /// - Parameter flags: `StateWord` flags to start with (`runsOnRead` for lazy work).
    @inlinable
    init(work: (@Sendable () throws(Failure) -> Value)?, fileID: StaticString, line: UInt, flags: UInt64 = 0) {
        _state = Atomic(StateWord.initial(fileID: fileID, line: line) | flags)
        _work = work
        _outcome = .none
    }

    init(resolved result: Result<Value, Failure>, fileID: StaticString, line: UInt) {
        _state = Atomic(StateWord.initial(fileID: fileID, line: line) | StateWord.resolved)
        _outcome = Outcome(result)
    }

    deinit {
        let word = _state.load(ordering: .acquiring)
        if word & StateWord.callbacks != 0, StateWord.phase(word) != StateWord.resolved {
            _discardParkedCallbacks()
        }
    }

    // MARK: Kind hooks, overridden by the subclasses

    /// The kind of future, for messages: "BackgroundFuture", "LazyFuture", "Future".
    var _kindName: String { "Future" }

    /// Called by a blocking reader that found the work unstarted: claim it, or park.
    /// `waited` is how long this reader has already waited for it.
    func _pendingBlockingRead(firstLook: Bool, waited: Duration) -> PendingReadAction {
        .park(recheckAfter: nil)
    }

    /// Called by a reader that must not run the work on its own thread (a timed or async read).
    func _startWithoutBlocking() {}

    /// Whether nothing runs until someone reads: lazy futures and what is derived from them.
    var _isLazyKind: Bool { false }

    /// The futures a derived future waits on (connecting a lazy one first); `nil` for a
    /// future with work of its own.
    func _upstreamsForDemand(withoutBlocking: Bool) -> [any FutureNode]? { nil }

    /// Called when unstarted work is dropped because the future was resolved another way.
    @usableFromInline
    func _didDropUnstartedWork() {}

    // MARK: Reading

    /// The result if the future is resolved; never blocks, never starts work.
    @inlinable
    final var _resolvedResult: Result<Value, Failure>? {
        guard StateWord.phase(_state.load(ordering: .acquiring)) == StateWord.resolved else { return nil }
        return _outcome.result
    }

    /// The result of a future known to be resolved.
    @inlinable
    final var _result: Result<Value, Failure> {
        switch _outcome {
        case .success(let value): .success(value)
        case .failure(let error): .failure(error)
        case .none: preconditionFailure("the result of a future was read before it resolved")
        }
    }

    /// Whether the future is resolved. Never blocks and never starts work.
    ///
    /// ```swift
    /// if table.isResolved { print("already built") }
    /// ```
    @inlinable
    public final var isResolved: Bool {
        StateWord.phase(_state.load(ordering: .acquiring)) == StateWord.resolved
    }

    /// The result of a future that was not resolved at the first look. Unstarted work that this
    /// reader takes at once — a lazy future's, or queued background work when the `Scheduler`'s
    /// rule says so — runs here, on this thread, in code the client specializes; anything else
    /// waits (and claims work as its kind allows) in `_waitForResult()`.
    @inlinable
    final func _resultAfterRunningOrWaiting() -> Result<Value, Failure> {
        let word = _state.load(ordering: .relaxed)
        if StateWord.phase(word) == StateWord.pending {
            if word & StateWord.runsOnRead != 0 {
                if _claim() { return _runClaimedWorkForResult(isRunner: false) }
            } else if word & StateWord.readerMayClaim != 0, Scheduler.readerShouldClaimAtOnce(), _claim() {
                Scheduler.didDequeue()
                return Scheduler.runCounted { _runClaimedWorkForResult(isRunner: true) }
            }
        }
        return _waitForResult()
    }

    /// The result if the future is resolved, otherwise `nil`. Never blocks and never starts work.
    ///
    /// ```swift
    /// if case .success(let rows)? = query.peek { render(rows) }
    /// ```
    @inlinable
    public final var peek: Result<Value, Failure>? { _resolvedResult }

    /// The result, waiting for it (or computing it, for a lazy future) if needed.
    ///
    /// ```swift
    /// switch download.result {
    /// case .success(let data): save(data)
    /// case .failure(let error): report(error)
    /// }
    /// ```
    /// - Important: Blocks the calling thread until the future resolves. From async code use
    ///   ``get()``, which suspends instead.
    @available(*, noasync, message: "a blocking read can starve Swift's cooperative pool; use 'await future.get()'")
    @inlinable
    public final var result: Result<Value, Failure> {
        if let result = _resolvedResult { return result }
        return _resultAfterRunningOrWaiting()
    }

    /// The value, waiting for it (or computing it, for a lazy future) if needed.
    ///
    /// ```swift
    /// let count = try lines.value        // Future<[String], any Error>
    /// let table = index.value            // Future<Index, Never>: no `try`
    /// ```
    /// - Throws: The work's error, typed as `Failure`.
    /// - Important: Blocks the calling thread until the future resolves. From async code use
    ///   ``get()``, which suspends instead.
    @available(*, noasync, message: "a blocking read can starve Swift's cooperative pool; use 'await future.get()'")
    @inlinable
    public final var value: Value {
        get throws(Failure) {
            if let result = _resolvedResult { return try result.get() }
            return try _resultAfterRunningOrWaiting().get()
        }
    }

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
        _startWithoutBlocking()
        return _waitForResult(timeout: timeout)
    }

    /// A description of the creation site, for messages.
    package var _creationSite: String {
        let word = _state.load(ordering: .relaxed)
        return CreationSite.describe(number: StateWord.fileNumber(word), line: StateWord.line(word))
    }

    /// "LazyFuture<Int>" or "BackgroundFuture<Data, any Error>", for messages.
    package var _typeDescription: String {
        if Failure.self == Never.self { return "\(_kindName)<\(Value.self)>" }
        // The runtime spells the existential `Error`; Swift 6 source spells it `any Error`.
        let failure = Failure.self == (any Error).self ? "any Error" : "\(Failure.self)"
        return "\(_kindName)<\(Value.self), \(failure)>"
    }

    /// "pending", "running" or "resolved", for debugger descriptions. Never blocks and never
    /// starts work; a future being completed counts as running.
    package var _phaseName: String {
        switch StateWord.phase(_state.load(ordering: .acquiring)) {
        case StateWord.pending: "pending"
        case StateWord.resolved: "resolved"
        default: "running"
        }
    }
}

extension Future where Failure == Never {
    /// The value, waiting for it (or computing it, for a lazy future) if needed.
    ///
    /// The work of this future cannot fail, so no `try` is needed.
    ///
    /// ```swift
    /// let index = LazyFuture { buildIndex() }
    /// print(index.value.count)
    /// ```
    /// - Important: Blocks the calling thread until the future resolves. From async code use
    ///   ``get()``, which suspends instead.
    @available(*, noasync, message: "a blocking read can starve Swift's cooperative pool; use 'await future.get()'")
    @inlinable
    public var value: Value {
        if case .success(let value)? = _resolvedResult { return value }
        switch _resultAfterRunningOrWaiting() {
        case .success(let value): return value
        }
    }
}
