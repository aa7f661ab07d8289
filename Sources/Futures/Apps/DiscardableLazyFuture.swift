public import Foundation

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
/// reader runs it, the others wait for it, as they do for a ``LazyFuture``. A failure is kept
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

    private let work: @Sendable () throws(Failure) -> Value
    /// Where a copy of the value is kept on disk, if anywhere.
    let storage: DiscardableStorage<Value>?
    @usableFromInline let condition = NSCondition()
    private var state = DiscardableState<Value, Failure>()
    /// The result held now, a copy of `state.content`'s `.held` (`nil` otherwise), for the read
    /// path: inlinable, so that the client's specialized code reads it without asking the
    /// runtime for the metadata of generic types (which cost a held read of unspecialized code
    /// about 100 times a `LazyFuture`'s resolved read). Exclusivity is not checked at run time:
    /// the lock gives one thread at a time access.
    @exclusivity(unchecked) @usableFromInline var _held: Result<Value, Failure>?
    private let fileID: StaticString
    private let line: UInt
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
    ///   - fileID: Leave the default: see <doc:CreationSites>.
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
        guard let result = await resultUnlessCancelled() else {
            throw (CancellationError() as any Error) as! Failure
        }
        return try result.get()
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
            misuse(
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

    private func withState<R>(_ body: (inout DiscardableState<Value, Failure>) -> R) -> R {
        condition.lock()
        defer { condition.unlock() }
        return body(&state)
    }

    /// The blocking read: the held result, or the one this thread computes, or the one it waits
    /// for. With `pinning`, a success is pinned before the lock is let go.
    @usableFromInline
    func acquire(pinning: Bool) -> Result<Value, Failure> {
        var thread: ObjectIdentifier?
        condition.lock()
        while true {
            switch state.content {
            case .held(let result):
                if pinning, case .success = result { state.pins += 1 }
                condition.unlock()
                return result
            case .computing(let runner):
                let me = thread ?? ObjectIdentifier(Thread.current)
                thread = me
                if runner == me {
                    condition.unlock()
                    misuse(
                        "DiscardableLazyFuture<\(Value.self)> created at \(fileID):\(line) was read from "
                            + "inside its own work")
                }
                // Looked at again after a while: a lost broadcast costs a recheck, never a hang.
                _ = condition.wait(until: Date(timeIntervalSinceNow: EngineTiming.lostWakeUpRecheck.seconds))
            case .empty:
                let me = thread ?? ObjectIdentifier(Thread.current)
                state.content = .computing(runner: me)
                let fromDisk = state.storedOnDisk
                condition.unlock()
                return computeClaimed(fromDisk: fromDisk, pinning: pinning)
            }
        }
    }

    /// The async read's wait: the result, or `nil` if the task was cancelled (only where
    /// `Failure` is `any Error`).
    private func resultUnlessCancelled() async -> Result<Value, Failure>? {
        let cancellable = _isAnyError(Failure.self)
        if cancellable, Task.isCancelled { return nil }
        let wait = CancellableWait<Result<Value, Failure>>()
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<Value, Failure>?, Never>) in
                guard wait.install(continuation) else { return }
                condition.lock()
                switch state.content {
                case .held(let result):
                    condition.unlock()
                    wait.resume(with: result)
                case .computing:
                    state.waiters.append(wait)
                    condition.unlock()
                case .empty:
                    state.content = .computing(runner: nil)
                    state.waiters.append(wait)
                    let fromDisk = state.storedOnDisk
                    condition.unlock()
                    ExecutionContext.global().execute {
                        _ = self.computeClaimed(fromDisk: fromDisk, pinning: false)
                    }
                }
            }
        } onCancel: {
            if cancellable { wait.cancel() }
        }
    }

    /// Computes the value (or reads it back from disk) for a reader that claimed the
    /// computation, then hands it to everyone waiting.
    private func computeClaimed(fromDisk: Bool, pinning: Bool) -> Result<Value, Failure> {
        var result: Result<Value, Failure>?
        var computed = false
        if fromDisk, let restored = storage?.load() {
            result = .success(restored)
        }
        if result == nil {
            computed = true
            do throws(Failure) {
                result = .success(try work())
            } catch {
                result = .failure(error)
            }
        }
        let outcome = result.unsafelyUnwrapped
        var stored = !computed
        if computed, let storage, case .success(let value) = outcome {
            stored = storage.save(value)
        }
        condition.lock()
        state.content = .held(outcome)
        _held = outcome
        state.storedOnDisk = stored
        if computed { state.computations += 1 }
        if pinning, case .success = outcome { state.pins += 1 }
        let waiters = state.waiters
        state.waiters = []
        condition.broadcast()
        condition.unlock()
        for wait in waiters { wait.resume(with: outcome) }
        return outcome
    }

    /// Drops what is held (and the copy on disk, if asked) unless pinned or computing.
    private func drop(removingStoredCopy: Bool) -> Bool {
        var dropped: Result<Value, Failure>?
        let (changed, removeFile) = withState { state -> (Bool, Bool) in
            guard state.pins == 0 else { return (false, false) }
            switch state.content {
            case .computing:
                return (false, false)
            case .held(let result):
                dropped = result
                state.content = .empty
                _held = nil
            case .empty:
                break
            }
            let removeFile = removingStoredCopy && state.storedOnDisk
            if removeFile { state.storedOnDisk = false }
            return (dropped != nil || removeFile, removeFile)
        }
        if removeFile { storage?.remove() }
        // The dropped value is released here, outside the lock, when `dropped` goes.
        dropped = nil
        return changed
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

/// What a ``DiscardableLazyFuture`` knows, under its lock.
struct DiscardableState<Value: Sendable, Failure: Error> {
    enum Content {
        /// No result: before the first read, or after a discard.
        case empty
        /// A reader computes it; `runner` is its thread, or `nil` for the global context.
        case computing(runner: ObjectIdentifier?)
        /// The result of the last computation.
        case held(Result<Value, Failure>)
    }

    var content = Content.empty
    /// Pins taken by `beginContentAccess()` and not yet released.
    var pins = 0
    /// Whether a copy of the value is on disk, to read back instead of computing.
    var storedOnDisk = false
    /// How many times the work has run.
    var computations = 0
    /// The async readers waiting for the computation under way.
    var waiters: [CancellableWait<Result<Value, Failure>>] = []
}
