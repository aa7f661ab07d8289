extension Future {
    /// Makes a future that has already succeeded with `value`.
    ///
    /// For a cache hit, a default, a test; reading it never blocks.
    ///
    /// ```swift
    /// if let cached = cache[user.id] { return Future(value: cached) }
    /// ```
    /// - Parameters:
    ///   - value: The value.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    @inlinable
    public convenience init(value: Value, fileID: StaticString = #fileID, line: UInt = #line) {
        self.init(resolved: .success(value), fileID: fileID, line: line)
    }

    /// Makes a future that has already failed with `failure`.
    ///
    /// ```swift
    /// guard let url = URL(string: text) else { return Future<Data, LoadError>(failure: .badAddress(text)) }
    /// ```
    /// - Parameters:
    ///   - failure: The error.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    @inlinable
    public convenience init(failure: Failure, fileID: StaticString = #fileID, line: UInt = #line) {
        self.init(resolved: .failure(failure), fileID: fileID, line: line)
    }

    /// Makes a future that has already resolved to `result`.
    ///
    /// ```swift
    /// let parsed = Future(result: Result { () throws(ParseError) in try parse(text) })
    /// ```
    /// - Parameters:
    ///   - result: The value or the error.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    @inlinable
    public convenience init(result: Result<Value, Failure>, fileID: StaticString = #fileID, line: UInt = #line) {
        self.init(resolved: result, fileID: fileID, line: line)
    }
}

extension Future where Failure == Never {
    /// Makes a future that has already succeeded with `value`, and cannot fail.
    ///
    /// ```swift
    /// let answer = Future(value: 42)
    /// print(answer.value + 1)
    /// ```
    /// - Parameters:
    ///   - value: The value.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    @inlinable
    public convenience init(value: Value, fileID: StaticString = #fileID, line: UInt = #line) {
        self.init(resolved: .success(value), fileID: fileID, line: line)
    }
}
