/// The reads that return a future's outcome (`value`, `result` and `peek`), declared in an
/// extension of this protocol rather than in `Future` itself, so that a read through a subclass
/// costs what a read through `Future` costs.
///
/// Why: a member of `Future` read through a variable typed `LazyFuture` or `BackgroundFuture`
/// converts the variable to its superclass, and on Swift 6.3 that conversion copies the reference
/// when the member is inlined: a retain and a release around every read. A protocol extension is
/// specialized for the variable's own type, so no conversion happens (gated: resolved read).
///
/// Only `Future` conforms; the protocol carries no API of its own. Use the members on a future.
public protocol _FutureReading<Value, Failure>: AnyObject {
    /// The future's value type.
    associatedtype Value: Sendable
    /// The future's error type.
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
    /// switch download.result {
    /// case .success(let data): save(data)
    /// case .failure(let error): report(error)
    /// }
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

// The non-throwing twins below work around a compiler crash: on Swift 6.3, a `get throws(Failure)`
// accessor read without `try` where `Failure == Never` crashes SILGen (signal 11), in this module
// and in user code such as `func f<T>(_ x: Future<T, Never>) -> T { x.value }`
// (swiftlang/swift#74273, fixed by swiftlang/swift#86815 after 6.3). Overload resolution picks the
// twin, and `GenericCodeTests` compiles such user code. Remove the twins once the fix ships.
extension _FutureReading where Failure == Never {
    /// The value, waiting for it (or computing it, for a lazy future) if needed.
    ///
    /// The work of this future cannot fail, so no `try` is needed.
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
