public import Foundation
import Futures

/// A lazy value that can give its memory back: computed on the first read, dropped by
/// ``discard()`` (or, on Apple platforms, under memory pressure), and computed again on the
/// next read. MAFuture's `IKMemoryAwareFuture`, in the shape of Foundation's
/// `NSDiscardableContent`.
///
/// Use it for what is cheap to make again and costly to keep: a rendered page, a decoded image,
/// a parsed document.
///
/// ```swift
/// let page = DiscardableLazyFuture { render(document) }   // DiscardableLazyFuture<Image, Never>
/// show(page.value)                 // renders on the first read
/// page.discard()                   // frees the image
/// show(page.value)                 // renders again
///
/// if page.beginContentAccess() {   // pinned: discard() and memory pressure leave it alone
///     defer { page.endContentAccess() }
///     draw(page.value)
/// }
/// ```
///
/// The work runs once per computation, however many threads and tasks read at once: the first
/// reader runs it, the others wait for it, as they do for a `LazyFuture`. A failure is kept
/// like a value (every reader sees it) until it is discarded; the next read then tries again.
/// A reader gets its own reference to the value, so a value being read is never freed under
/// it: a discard only drops the future's reference.
///
/// Memory pressure: on Apple platforms a Dispatch memory-pressure source (warning and critical)
/// discards every unpinned value that is not being computed. Linux has no such signal in
/// Dispatch: there only ``discard()`` drops a value. For values that are costly to compute,
/// ``init(storingIn:fileID:line:_:)`` keeps a copy on disk, read back instead of computing.
public final class DiscardableLazyFuture<Value: Sendable, Failure: Error>: @unchecked Sendable {
    // @unchecked: `state` and `_held` are read and written only while `condition` is locked;
    // every other stored property is a constant of a Sendable type.

    let work: @Sendable () throws(Failure) -> Value
    /// Where a copy of the value is kept on disk, if anywhere.
    let storage: DiscardableStorage<Value>?
    @usableFromInline let condition = NSCondition()
    var state = DiscardableState<Value, Failure>()
    /// The result held now, a copy of `state.content`'s `.held` (`nil` otherwise), for the read
    /// path: inlinable, so that the client's specialized code reads it without asking the
    /// runtime for the metadata of generic types (which cost a held read of unspecialized code
    /// about 100 times a `LazyFuture`'s resolved read). Exclusivity is not checked at run time:
    /// the lock gives one thread at a time access.
    @exclusivity(unchecked) @usableFromInline var _held: Result<Value, Failure>?
    let fileID: StaticString
    let line: UInt
    /// The registry whose memory-pressure source discards this future's value.
    private let relief: MemoryPressureRelief

    /// A discardable lazy future of `work`'s value, computed on the first read and after each
    /// discard. `Failure` is inferred from `work`: `Never` when it does not throw.
    ///
    /// ```swift
    /// let thumbnail = DiscardableLazyFuture { decodeThumbnail(bytes) }
    /// let table = DiscardableLazyFuture { () throws(ParseError) in try parse(csv) }
    /// ```
    /// - Parameters:
    ///   - fileID: Leave the default: it names the calling line in diagnostics.
    ///   - line: Leave the default.
    ///   - work: Computes the value. It runs on the thread of the read that finds no value (the
    ///     global context for ``get()``), once per computation.
    public convenience init(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ work: @escaping @Sendable () throws(Failure) -> Value
    ) {
        self.init(storage: nil, relief: .shared, fileID: fileID, line: line, work: work)
    }

    /// A discardable lazy future with a copy on disk in `storage`, if any, discarded under
    /// memory pressure by `relief` (tests give one of their own).
    init(
        storage: DiscardableStorage<Value>?,
        relief: MemoryPressureRelief,
        fileID: StaticString,
        line: UInt,
        work: @escaping @Sendable () throws(Failure) -> Value
    ) {
        self.work = work
        self.storage = storage
        self.relief = relief
        self.fileID = fileID
        self.line = line
        relief.register(self)
    }

    deinit {
        relief.unregister(ObjectIdentifier(self))
        storage?.remove()
    }

    // MARK: Reading

    /// The result, computing it (or reading it back from disk) if no result is held, or
    /// waiting for the computation under way.
    ///
    /// ```swift
    /// switch table.result {
    /// case .success(let rows): show(rows)
    /// case .failure(let error): report(error)
    /// }
    /// ```
    /// - Important: Blocks the calling thread until the value exists. From async code use
    ///   ``get()``, which suspends instead.
    @available(*, noasync, message: "a blocking read can starve Swift's cooperative pool; use 'await future.get()'")
    @inlinable
    public var result: Result<Value, Failure> {
        if let result = _heldResult { return result }
        return acquire(pinning: false)
    }

    /// The value, computing it (or reading it back from disk) if none is held, or waiting for
    /// the computation under way.
    ///
    /// ```swift
    /// let rows = try table.value          // DiscardableLazyFuture<[Row], ParseError>
    /// let image = page.value              // DiscardableLazyFuture<Image, Never>: no `try`
    /// ```
    /// - Throws: The work's error, typed as `Failure`.
    /// - Important: Blocks the calling thread until the value exists. From async code use
    ///   ``get()``, which suspends instead.
    @available(*, noasync, message: "a blocking read can starve Swift's cooperative pool; use 'await future.get()'")
    @inlinable
    public var value: Value {
        get throws(Failure) {
            if let result = _heldResult { return try result.get() }
            return try acquire(pinning: false).get()
        }
    }

    /// The value, suspending the calling task while it is computed (on the global context) or
    /// read back from disk.
    ///
    /// Where `Failure` is `any Error`, the wait is cancellable: a cancelled task stops waiting
    /// and gets `CancellationError`; the computation goes on for the other readers. For any
    /// other `Failure`, the wait ends when the value exists.
    ///
    /// ```swift
    /// let image = await page.get()        // no `try` where Failure == Never
    /// ```
    /// - Throws: The work's error, typed as `Failure`; where `Failure` is `any Error`, also
    ///   `CancellationError` if the calling task is cancelled while it waits.
    public func get() async throws(Failure) -> Value {
        if let result = _heldResult { return try result.get() }
        // Where the wait is cancellable, a task cancelled before it waits starts no computation.
        if Failure.self == (any Error).self, Task.isCancelled {
            throw (CancellationError() as any Error) as! Failure
        }
        switch resultOrComputation() {
        case .held(let result): return try result.get()
        // `Future.get()` waits as this read promises: cancellable only where `Failure` is
        // `any Error`, and the computation goes on for the other readers.
        case .computing(let future): return try await future.get()
        }
    }

    // MARK: Giving memory back

    /// Drops the value (or the failure) held, unless it is pinned or being computed; the next
    /// read computes it again (or reads it back from disk, for a future made with
    /// ``init(storingIn:fileID:line:_:)``).
    ///
    /// Readers that already have the value keep it: only the future's reference is dropped.
    /// Never blocks on the work and never runs it.
    ///
    /// ```swift
    /// if page.discard() { print("page freed") }
    /// ```
    /// - Returns: `true` if a value or a failure was dropped; `false` if nothing was held, it is
    ///   pinned by ``beginContentAccess()``, or it is being computed.
    @discardableResult
    public func discard() -> Bool {
        drop(removingStoredCopy: false)
    }

    /// Drops the value as ``discard()`` does, and the copy kept on disk too, if any: the next
    /// read runs the work again. Use it when what the value was made from has changed.
    ///
    /// ```swift
    /// document.didChange = { page.invalidate() }
    /// ```
    /// - Returns: `true` if a value, a failure or a copy on disk was dropped; `false` if nothing
    ///   was held or stored, the value is pinned, or it is being computed.
    @discardableResult
    public func invalidate() -> Bool {
        drop(removingStoredCopy: true)
    }

    /// Pins the value, computing it first if needed: ``discard()``, ``invalidate()`` and memory
    /// pressure leave a pinned value alone until every pin is released with
    /// ``endContentAccess()``. Pins nest.
    ///
    /// ```swift
    /// if page.beginContentAccess() {
    ///     defer { page.endContentAccess() }
    ///     draw(page.value)                // cannot be discarded meanwhile
    /// }
    /// ```
    /// - Returns: `true` if the value exists and is pinned; `false` only if computing it failed
    ///   (nothing is pinned then: do not call ``endContentAccess()``).
    /// - Important: Blocks the calling thread while the value is computed.
    @available(
        *, noasync, message: "a blocking read can starve Swift's cooperative pool; pin from a thread that may block"
    )
    public func beginContentAccess() -> Bool {
        if case .success = acquire(pinning: true) { return true }
        return false
    }

    /// Releases a pin taken by a successful ``beginContentAccess()``.
    ///
    /// ```swift
    /// page.endContentAccess()
    /// ```
    /// It traps if no pin is held: a call without its matching successful
    /// ``beginContentAccess()`` is a programmer error.
    public func endContentAccess() {
        let balanced = withState { state -> Bool in
            guard state.pins > 0 else { return false }
            state.pins -= 1
            return true
        }
        guard balanced else {
            fatalError(
                "DiscardableLazyFuture<\(Value.self)> created at \(fileID):\(line): endContentAccess() "
                    + "without a matching successful beginContentAccess()")
        }
    }

    /// Whether no value is held now: before the first computation, after a discard, while
    /// computing, or after a failure. Never blocks and never starts work.
    ///
    /// ```swift
    /// if page.isContentDiscarded { showPlaceholder() }
    /// ```
    public var isContentDiscarded: Bool {
        withState { state in
            if case .held(.success) = state.content { return false }
            return true
        }
    }

    // MARK: Internals

    /// How many times the work has run, for tests.
    var computationCount: Int { withState { $0.computations } }

    /// The result held now, if any; never blocks on the work.
    @inlinable
    final var _heldResult: Result<Value, Failure>? {
        condition.lock()
        defer { condition.unlock() }
        return _held
    }

    func withState<R>(_ body: (inout DiscardableState<Value, Failure>) -> R) -> R {
        condition.lock()
        defer { condition.unlock() }
        return body(&state)
    }
}

extension DiscardableLazyFuture where Failure == Never {
    /// The value, computing it if none is held, or waiting for the computation under way.
    ///
    /// The work cannot fail, so no `try` is needed.
    ///
    /// ```swift
    /// let page = DiscardableLazyFuture { render(document) }
    /// show(page.value)
    /// ```
    /// - Important: Blocks the calling thread until the value exists. From async code use
    ///   ``get()``, which suspends instead.
    @available(*, noasync, message: "a blocking read can starve Swift's cooperative pool; use 'await future.get()'")
    @inlinable
    public var value: Value {
        if case .success(let value)? = _heldResult { return value }
        switch acquire(pinning: false) {
        case .success(let value): return value
        }
    }
}

extension DiscardableLazyFuture: DiscardableUnderPressure {
    func discardUnderPressure() -> Bool { discard() }
}
