/// The reads (`value`, `result`, `peek`), in a protocol extension rather than on `Future`: a
/// member of `Future` read through a `LazyFuture` or `BackgroundFuture` variable converts it to the
/// superclass, which on Swift 6.3 costs a retain and a release per inlined read; a protocol
/// extension is specialized for the variable's own type (gated: resolved read). Only `Future`
/// conforms; not API.
public protocol _FutureReading<Value, Failure>: AnyObject {
    associatedtype Value: Sendable
    associatedtype Failure: Error
    /// The value if the future resolved with one; `nil` otherwise. Never blocks.
    var _successOnTheReadPath: Value? { get }
    /// The result, after the read path found no value: runs or waits for the work if needed.
    func _resultAfterTheReadPath() -> Result<Value, Failure>
    /// The result if the future is resolved, after the read path found no value; never blocks.
    var _resolvedResultAfterTheReadPath: Result<Value, Failure>? { get }
}

extension _FutureReading {
    /// The result if the future is resolved, otherwise `nil`. Never blocks and never starts work.
    ///
    /// ```swift
    /// if case .success(let rows)? = query.peek { render(rows) }
    /// ```
    @inlinable
    public var peek: Result<Value, Failure>? {
        if let value = _successOnTheReadPath { return .success(value) }
        return _resolvedResultAfterTheReadPath
    }

    /// The result, waiting for it (or computing it, for a lazy future) if needed.
    ///
    /// ```swift
    /// if case .success(let data) = download.result { save(data) }
    /// ```
    /// - Important: Blocks the calling thread until the future resolves. From async code use
    ///   ``Future/get()``, which suspends instead.
    @available(*, noasync, message: "a blocking read can starve Swift's cooperative pool; use 'await future.get()'")
    @inlinable
    public var result: Result<Value, Failure> {
        if let value = _successOnTheReadPath { return .success(value) }
        return _resultAfterTheReadPath()
    }

    /// The value, waiting for it (or computing it, for a lazy future) if needed.
    ///
    /// ```swift
    /// let count = try lines.value        // Future<[String], any Error>
    /// let table = index.value            // Future<Index, Never>: no `try`
    /// ```
    /// - Throws: The work's error, typed as `Failure`.
    /// - Important: Blocks the calling thread until the future resolves. From async code use
    ///   ``Future/get()``, which suspends instead.
    @available(*, noasync, message: "a blocking read can starve Swift's cooperative pool; use 'await future.get()'")
    @inlinable
    public var value: Value {
        get throws(Failure) {
            if let value = _successOnTheReadPath { return value }
            return try _resultAfterTheReadPath().get()
        }
    }
}

// Works around swiftlang/swift#74273 (fixed by #86815 after 6.3): a `get throws(Failure)`
// accessor read without `try` where `Failure == Never` crashes SILGen, here and in user code.
// Overload resolution picks this twin (`GenericCodeTests`); remove it once the fix ships.
extension _FutureReading where Failure == Never {
    /// The value, waiting for it (or computing it, for a lazy future) if needed.
    ///
    /// ```swift
    /// let index = LazyFuture { buildIndex() }
    /// print(index.value.count)
    /// ```
    /// - Important: Blocks the calling thread until the future resolves. From async code use
    ///   ``Future/get()``, which suspends instead.
    @available(*, noasync, message: "a blocking read can starve Swift's cooperative pool; use 'await future.get()'")
    @inlinable
    public var value: Value {
        if let value = _successOnTheReadPath { return value }
        switch _resultAfterTheReadPath() {
        case .success(let value): return value
        }
    }
}
