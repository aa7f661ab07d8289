extension Future {
    /// Makes a future derived from this one alone; `resolve` runs once this one resolves.
    func _derive<NewValue, NewFailure>(
        fileID: StaticString,
        line: UInt,
        _ resolve: @escaping @Sendable (Future<Value, Failure>, Future<NewValue, NewFailure>) -> Void
    ) -> Future<NewValue, NewFailure> {
        Future<NewValue, NewFailure>(derivingFrom: [self], lazy: _isLazyKind, fileID: fileID, line: line) { child in
            self._onResolution { parent in resolve(parent, child) }
        }
    }

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
    ///   - transform: A function of the value. It must not block; it may throw `Failure`.
    ///   - fileID: The file that makes the future, named in trap messages and debug descriptions;
    ///     leave the default.
    ///   - line: The line that makes the future, likewise; leave the default.
    /// - Returns: A future that fails with this future's error, if any.
    public func map<NewValue: Sendable>(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (Value) throws(Failure) -> NewValue
    ) -> Future<NewValue, Failure> {
        _derive(fileID: fileID, line: line) { parent, child in
            switch parent._result {
            case .success(let value):
                child.resolve { () throws(Failure) in try transform(value) }
            case .failure(let error):
                child.resolve(with: .failure(error), sourceCancelled: parent._isCancelled)
            }
        }
    }

    /// Returns a future of the future that `transform` makes from this future's value.
    ///
    /// Use it to chain a step that is itself asynchronous. `transform` runs as ``map(fileID:line:_:)``'s
    /// does; the child resolves when the future it returns does.
    ///
    /// ```swift
    /// let avatar = user.flatMap { user in BackgroundFuture { try download(user.avatarURL) } }
    /// ```
    /// - Parameters:
    ///   - transform: Makes the next future from the value. It must not block.
    ///   - fileID: The file that makes the future, named in trap messages and debug descriptions;
    ///     leave the default.
    ///   - line: The line that makes the future, likewise; leave the default.
    /// - Returns: A future that fails with the first error on the way.
    public func flatMap<NewValue: Sendable>(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (Value) throws(Failure) -> Future<NewValue, Failure>
    ) -> Future<NewValue, Failure> {
        _derive(fileID: fileID, line: line) { parent, child in
            switch parent._result {
            case .success(let value):
                let inner: Future<NewValue, Failure>
                do throws(Failure) {
                    inner = try transform(value)
                } catch {
                    child.resolve(with: .failure(error))
                    return
                }
                child.wait(on: inner)
                inner._onResolution { inner in
                    child.resolve(with: inner._result, sourceCancelled: inner._isCancelled)
                }
            case .failure(let error):
                child.resolve(with: .failure(error), sourceCancelled: parent._isCancelled)
            }
        }
    }

    /// Returns a future whose error is `transform` applied to this future's error.
    ///
    /// ```swift
    /// let config = rawConfig.mapError { ConfigError.unreadable($0) }   // Future<Config, ConfigError>
    /// ```
    /// - Parameters:
    ///   - transform: Makes the new error. It runs only if this future fails.
    ///   - fileID: The file that makes the future, named in trap messages and debug descriptions;
    ///     leave the default.
    ///   - line: The line that makes the future, likewise; leave the default.
    /// - Returns: A future with the same value, or the transformed error.
    public func mapError<NewFailure: Error>(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (Failure) -> NewFailure
    ) -> Future<Value, NewFailure> {
        _derive(fileID: fileID, line: line) { parent, child in
            switch parent._result {
            case .success(let value):
                child.resolve(with: .success(value))
            case .failure(let error):
                child.resolve(with: .failure(transform(error)), sourceCancelled: parent._isCancelled)
            }
        }
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
    ///   - transform: Makes a value from the error, or throws a new error.
    ///   - fileID: The file that makes the future, named in trap messages and debug descriptions;
    ///     leave the default.
    ///   - line: The line that makes the future, likewise; leave the default.
    /// - Returns: A future with this future's value, or the recovered one.
    public func recover<NewFailure: Error>(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ transform: @escaping @Sendable (Failure) throws(NewFailure) -> Value
    ) -> Future<Value, NewFailure> {
        _derive(fileID: fileID, line: line) { parent, child in
            switch parent._result {
            case .success(let value):
                child.resolve(with: .success(value))
            case .failure(let error):
                child.resolve { () throws(NewFailure) in try transform(error) }
            }
        }
    }
}
