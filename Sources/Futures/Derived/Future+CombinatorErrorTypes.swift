// How a chain's error type is decided. A derived future fails with the join of the source's
// `Failure`, the closure's thrown type and (for `flatMap`) the inner future's `Failure`: `Never`
// joins anything, a type joins itself, and `any Error` on the source side joins anything. Any
// other mix is rejected with a message saying what to write (`mapError`, `eraseFailure()`,
// `throws(E)`): widening is never silent. A closure with `try` but no declared type throws
// `any Error` in Swift 6.3 (swiftlang/swift#80787), so on a concrete source it says `throws(E)`.
//
// Swift 6.3 finds overloads differing only in what their closure throws ambiguous, so each that
// overlaps a more common one is `@_disfavoredOverload`. Where two disfavored ones overlap, the
// one only a source of `Never` or of `any Error` reaches lives in a protocol extension
// (`_FutureReading`, which only `Future` conforms to): the solver ranks a member of the type above
// a member of a protocol extension whatever their signatures, so the overlap needs no third
// overload. A third one more specific than the generic rows would break the typed chains: a
// literal source `BackgroundFuture { () throws(E) in … }` can also be read as failing with
// `any Error`, and the solver weighs an overload's specificity by the depth of the expression
// (a `.value` or `.map` after the `flatMap`) against a fixed credit for the narrower error type.
// Rejections are `@available(*, unavailable)`: picked only when nothing else fits.
//
// | Source     | map                                 | flatMap                                          |
// | ---------- | ----------------------------------- | ------------------------------------------------ |
// | any F      | (V) -> T ⇒ F                        | (V) -> Future<T, F> ⇒ F                          |
// |            | (V) throws(F) -> T ⇒ F (disfavored) | (V) throws(F) -> Future<T, F> ⇒ F (disfavored)   |
// |            |                                     | (V) -> Future<T, Never> ⇒ F (disfavored)         |
// |            | anything else: unavailable          | anything else: unavailable                       |
// | Never      | (V) throws(E) -> T ⇒ E (disfav.)    | (V) -> Future<T, E> ⇒ E (disfavored)             |
// |            |                                     | (V) throws(E) -> Future<T, E> ⇒ E (disf., proto) |
// | any Error  |                                     | (V) throws -> Future<T, E> ⇒ any Error (d., pr.) |
// New closure-taking combinators follow this pattern. A source-making closure (initializer,
// `Future.task`, `Agent.async`) must not get a non-throwing overload whose error type only the
// context gives: a literal source in a chain then has two routes to one type
// (`Future.task { 5 }.flatMap { fetchUser($0) }` is ambiguous); such a source says `throws(E)` or
// uses `setFailureType(to:)`. Each overload is needed by a form in Tests/CompileForms
// (docs/design.md, Typing).

extension Future where Failure == Never {
    /// Returns a future holding `transform` applied to this future's value, or the error
    /// `transform` throws: a future that cannot fail becomes one that fails as `transform` does.
    ///
    /// ```swift
    /// let text = LazyFuture { bytes }.map { try decode($0) }   // Future<String, any Error>
    /// ```
    /// - Parameters:
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - transform: A function of the value that may throw. It must not block.
    /// - Returns: A future that fails with `transform`'s error, if it throws one.
    @inlinable @_disfavoredOverload
    public func map<NewValue: Sendable, NewFailure: Error>(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (Value) throws(NewFailure) -> NewValue
    ) -> Future<NewValue, NewFailure> {
        _map(fileID: fileID, line: line, transform)
    }

    /// Returns a future of the future that `transform` makes from this future's value: a future
    /// that cannot fail becomes one that fails as the inner future does.
    ///
    /// ```swift
    /// let page = LazyFuture { url }.flatMap { url in fetch(url) }   // Future<Page, APIError>
    /// ```
    /// - Parameters:
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - transform: Makes the next future from the value. It must not block.
    /// - Returns: A future that fails with the inner future's error, if any.
    @inlinable @_disfavoredOverload
    public func flatMap<NewValue: Sendable, NewFailure: Error>(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (Value) -> Future<NewValue, NewFailure>
    ) -> Future<NewValue, NewFailure> {
        _flatMap(fileID: fileID, line: line, transform)
    }

    /// A future that cannot fail has no error to map: this overload only warns.
    ///
    /// To change the error type, write ``setFailureType(to:fileID:line:)`` or ``Future/eraseFailure(fileID:line:)``.
    ///
    /// ```swift
    /// let widened = LazyFuture { 3 }.setFailureType(to: LoadError.self)   // not mapError
    /// ```
    /// - Parameters:
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - transform: Never called.
    /// - Returns: The future with the new error type, as ``setFailureType(to:fileID:line:)`` gives.
    @available(
        *, deprecated,
        message:
            "a future that cannot fail has no error to map; to change its error type write 'setFailureType(to:)' or 'eraseFailure()'"
    )
    public func mapError<NewFailure: Error>(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (Never) -> NewFailure
    ) -> Future<Value, NewFailure> {
        setFailureType(to: NewFailure.self, fileID: fileID, line: line)
    }

    /// A future that cannot fail has nothing to recover from: this overload only warns.
    ///
    /// Use the future as it is, or ``setFailureType(to:fileID:line:)`` to give it an error type.
    ///
    /// ```swift
    /// let count = LazyFuture { 3 }   // no recover needed: it cannot fail
    /// ```
    /// - Parameters:
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - transform: Never called.
    /// - Returns: The future with the new error type, as ``setFailureType(to:fileID:line:)`` gives.
    @available(
        *, deprecated,
        message:
            "a future that cannot fail has nothing to recover from; use it as it is, or write 'setFailureType(to:)'"
    )
    public func recover<NewFailure: Error>(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (Never) throws(NewFailure) -> Value
    ) -> Future<Value, NewFailure> {
        setFailureType(to: NewFailure.self, fileID: fileID, line: line)
    }
}

// In a protocol extension so that, where it overlaps `flatMap` on `Future` (a closure that does not
// throw), the member of `Future` wins (see the top of this file). Only `Future` conforms.
extension _FutureReading where Failure == Never {
    /// Returns a future of the future that `transform` makes from this future's value, where
    /// `transform` may also throw the inner future's error type.
    ///
    /// ```swift
    /// let page = LazyFuture { path }.flatMap { path throws(APIError) in
    ///     try fetch(validated(path))        // fetch returns Future<Page, APIError>
    /// }
    /// ```
    /// - Parameters:
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - transform: Makes the next future from the value, or throws. It must not block.
    /// - Returns: A future that fails with `transform`'s error or the inner future's.
    @inlinable @_disfavoredOverload
    public func flatMap<NewValue: Sendable, NewFailure: Error>(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (Value) throws(NewFailure) -> Future<NewValue, NewFailure>
    ) -> Future<NewValue, NewFailure> {
        unsafeDowncast(self, to: Future<Value, Never>.self)._flatMap(fileID: fileID, line: line, transform)
    }
}

// In a protocol extension so that, where it overlaps `flatMap` on `Future` (an inner future of
// `any Error` or `Never`), the member of `Future` wins (see the top of this file). Only `Future`
// conforms.
extension _FutureReading where Failure == any Error {
    /// Returns a future of the future that `transform` makes from this future's value, whatever
    /// the inner future's error type: the child fails with `any Error`.
    ///
    /// ```swift
    /// let user = token.flatMap { token in api.user(token) }   // api.user returns Future<User, APIError>
    /// ```
    /// - Parameters:
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - transform: Makes the next future from the value, or throws. It must not block.
    /// - Returns: A future that fails with the first error on the way.
    @inlinable @_disfavoredOverload
    public func flatMap<NewValue: Sendable, InnerFailure: Error>(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (Value) throws -> Future<NewValue, InnerFailure>
    ) -> Future<NewValue, any Error> {
        unsafeDowncast(self, to: Future<Value, any Error>.self)._flatMap(fileID: fileID, line: line, transform)
    }
}

extension Future {
    /// Rejects a transform whose error type does not join this future's: see the message.
    ///
    /// ```swift
    /// let port = settings.map { s throws(ConfigError) in try parsePort(s) }   // settings: Future<_, ConfigError>
    /// ```
    /// - Parameters:
    ///   - fileID: Unused.
    ///   - line: Unused.
    ///   - transform: Unused.
    /// - Returns: Never returns.
    @available(
        *, unavailable,
        message:
            "the closure throws an error type other than this future's; a closure with 'try' throws 'any Error' unless it declares its type ('{ value throws(MyError) in ... }'); or convert the future's error first with 'mapError', or widen it with 'eraseFailure()'"
    )
    public func map<NewValue: Sendable, TransformFailure: Error>(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (Value) throws(TransformFailure) -> NewValue
    ) -> Future<NewValue, TransformFailure> {
        preconditionFailure("unavailable")
    }

    /// Rejects a transform whose error type, or whose future's, does not join this future's:
    /// see the message.
    ///
    /// ```swift
    /// let page = session.flatMap { s in fetchPage(s) }   // both Future<_, APIError>
    /// ```
    /// - Parameters:
    ///   - fileID: Unused.
    ///   - line: Unused.
    ///   - transform: Unused.
    /// - Returns: Never returns.
    @available(
        *, unavailable,
        message:
            "the closure or the future it returns fails with an error type other than this future's; give the inner future this future's error type (a closure that declares 'throws(MyError)', or 'setFailureType(to:)' on one that cannot fail), or convert with 'mapError', or widen both with 'eraseFailure()'"
    )
    public func flatMap<NewValue: Sendable, TransformFailure: Error, InnerFailure: Error>(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (Value) throws(TransformFailure) -> Future<NewValue, InnerFailure>
    ) -> Future<NewValue, InnerFailure> {
        preconditionFailure("unavailable")
    }
}
