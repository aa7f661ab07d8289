// The main overloads: one per transform for a non-throwing closure (Swift 6.3 would otherwise
// bind an inferred `Never` to `Failure`: `BackgroundFuture { () throws(E) -> Int in 5 }.map
// { $0 + 1 }` fails) and one, `@_disfavoredOverload` to avoid ambiguity, for `throws(Failure)`.
// Mixed error types: Future+CombinatorErrorTypes.swift.

extension Future {
    /// Returns a future holding `transform` applied to this future's value.
    ///
    /// `transform` runs on the thread that resolves this future, or at once on the caller's
    /// thread if it is already resolved. A lazy future's child is lazy too: nothing runs until
    /// the child is read. A failure skips `transform` and reaches the child unchanged.
    ///
    /// ```swift
    /// let length = name.map { $0.count }
    /// ```
    /// - Parameters:
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - transform: A function of the value. It must not block.
    /// - Returns: A future that fails with this future's error, if any.
    @inlinable
    public func map<NewValue: Sendable>(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (Value) -> NewValue
    ) -> Future<NewValue, Failure> {
        _map(fileID: fileID, line: line, transform)
    }

    /// Returns a future holding `transform` applied to this future's value, or the error
    /// `transform` throws, of this future's error type.
    ///
    /// Declare the closure's error type: Swift 6.3 gives a closure that says `try` but not what
    /// it throws the type `any Error` (swiftlang/swift#80787).
    ///
    /// ```swift
    /// let port = settings.map { s throws(ConfigError) in try parsePort(s.port) }   // Future<Int, ConfigError>
    /// ```
    /// - Parameters:
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - transform: A function of the value that may throw `Failure`. It must not block.
    /// - Returns: A future that fails with this future's error or with `transform`'s.
    @_disfavoredOverload
    @inlinable
    public func map<NewValue: Sendable>(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (Value) throws(Failure) -> NewValue
    ) -> Future<NewValue, Failure> {
        _map(fileID: fileID, line: line, transform)
    }

    /// Returns a future of the future that `transform` makes from this future's value.
    ///
    /// Use it to chain a step that is itself asynchronous. `transform` runs as `map`'s does; the
    /// child resolves when the future it returns does.
    ///
    /// ```swift
    /// let avatar = user.flatMap { user in BackgroundFuture { try download(user.avatarURL) } }
    /// ```
    /// - Parameters:
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - transform: Makes the next future from the value. It must not block.
    /// - Returns: A future that fails with the first error on the way.
    @inlinable
    public func flatMap<NewValue: Sendable>(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (Value) -> Future<NewValue, Failure>
    ) -> Future<NewValue, Failure> {
        _flatMap(fileID: fileID, line: line, transform)
    }

    /// Returns a future of the future that `transform` makes from this future's value, where
    /// `transform` may throw this future's error type instead.
    ///
    /// ```swift
    /// let page = session.flatMap { s throws(APIError) in
    ///     guard s.isValid else { throw .expired }
    ///     return fetchPage(s)                      // Future<Page, APIError>
    /// }
    /// ```
    /// - Parameters:
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - transform: Makes the next future from the value, or throws `Failure`. It must not block.
    /// - Returns: A future that fails with the first error on the way.
    @_disfavoredOverload
    @inlinable
    public func flatMap<NewValue: Sendable>(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (Value) throws(Failure) -> Future<NewValue, Failure>
    ) -> Future<NewValue, Failure> {
        _flatMap(fileID: fileID, line: line, transform)
    }

    /// Returns a future of the future that cannot fail that `transform` makes from this
    /// future's value.
    ///
    /// ```swift
    /// let words = download.flatMap { data in LazyFuture { countWords(in: data) } }   // Future<Int, LoadError>
    /// ```
    /// - Parameters:
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - transform: Makes the next future from the value. It must not block.
    /// - Returns: A future that fails with this future's error, if any.
    @_disfavoredOverload
    @inlinable
    public func flatMap<NewValue: Sendable>(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (Value) -> Future<NewValue, Never>
    ) -> Future<NewValue, Failure> {
        _flatMap(fileID: fileID, line: line, transform)
    }

    /// Returns a future whose error is `transform` applied to this future's error.
    ///
    /// ```swift
    /// let config = rawConfig.mapError { ConfigError.unreadable($0) }   // Future<Config, ConfigError>
    /// ```
    /// - Parameters:
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - transform: Makes the new error. It runs only if this future fails.
    /// - Returns: A future with the same value, or the transformed error.
    @inlinable  // Specialized in the caller's module, as `map` (gated: mapError step).
    public func mapError<NewFailure: Error>(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (Failure) -> NewFailure
    ) -> Future<Value, NewFailure> {
        if _isResolvedForDerivingAtOnce,
            let child: Future<Value, NewFailure> = _childResolvedAtOnce(
                fileID: fileID, line: line,
                {
                    Self._resolve(
                        $0, from: self, recovering: { (error) throws(NewFailure) -> Value in throw transform(error) },
                        keepingCancellation: true)
                })
        {
            return child
        }
        // `recover`'s step, whose transform throws the new error: a step whose transform type
        // returns the error (`throws(Never)`) crashes Swift 6.3 emitting its reabstraction thunk.
        typealias Step = MapStep<Value, Failure, Value, NewFailure, Failure, Value, NewFailure>
        let step = Step(source: self, transform: { (error) throws(NewFailure) -> Value in throw transform(error) }) {
            step, parent in
            guard let (child, transform) = unsafeDowncast(step, to: Step.self).take() else { return }
            Self._resolve(child, from: parent, recovering: consume transform, keepingCancellation: true)
        }
        return _attachStep(step, fileID: fileID, line: line)
    }

    /// Returns a future that replaces this future's error with a value.
    ///
    /// A non-throwing `transform` gives a future that cannot fail. Cancellation is an error
    /// like any other here: `recover` sees `CancellationError` and may replace it.
    ///
    /// ```swift
    /// let avatar = download.recover { _ in Image.placeholder }   // Future<Image, Never>
    /// ```
    /// - Parameters:
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - transform: Makes a value from the error, or throws a new error.
    /// - Returns: A future with this future's value, or the recovered one.
    @inlinable  // Specialized in the caller's module, as `map` (gated: recover step).
    public func recover<NewFailure: Error>(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ transform: @escaping @Sendable (Failure) throws(NewFailure) -> Value
    ) -> Future<Value, NewFailure> {
        if _isResolvedForDerivingAtOnce,
            let child: Future<Value, NewFailure> = _childResolvedAtOnce(
                fileID: fileID, line: line,
                { Self._resolve($0, from: self, recovering: transform, keepingCancellation: false) })
        {
            return child
        }
        // A step, as `map`'s (`MapStep`), whose transform takes the error.
        typealias Step = MapStep<Value, Failure, Value, NewFailure, Failure, Value, NewFailure>
        let step = Step(source: self, transform: transform) { step, parent in
            guard let (child, transform) = unsafeDowncast(step, to: Step.self).take() else { return }
            Self._resolve(child, from: parent, recovering: consume transform, keepingCancellation: false)
        }
        return _attachStep(step, fileID: fileID, line: line)
    }

    /// Resolves `child`, a `recover` of the resolved `parent` (a cancellation is recovered too),
    /// or a `mapError` (`keepingCancellation`: an error mapped from a cancellation still cancels
    /// a child whose `NewFailure` is `any Error`).
    @inlinable
    static func _resolve<NewFailure>(
        _ child: Future<Value, NewFailure>,
        from parent: Future<Value, Failure>,
        recovering transform: (Failure) throws(NewFailure) -> Value,
        keepingCancellation: Bool
    ) {
        switch parent._result {
        case .success(let value):
            child._resolveUncontended(with: .success(value))
        case .failure(let error):
            do throws(NewFailure) {
                child._resolveUncontended(with: .success(try transform(error)))
            } catch {
                child._resolveUncontended(
                    with: .failure(error), sourceCancelled: keepingCancellation && parent._isCancelled)
            }
        }
    }
}
