// Subscripts of the subject. Swift forwards no subscript by itself (`@dynamicMemberLookup`
// covers `.member` syntax only), so these cover the subscripts of the standard library's
// protocols and of Dictionary; any other subscript is reached through the subject:
// `proxy()[x]`. Each typed-throws subscript has a non-throwing twin for `Failure == Never`.

extension Proxy where Subject: Collection {
    /// The element of the subject at `position`: `proxy[0]`.
    ///
    /// ```swift
    /// let lines = BackgroundFuture { try readLines(path) }   // Future<[String], any Error>
    /// let header = try lines[0]
    /// ```
    /// - Parameter position: A valid index of the subject.
    /// - Returns: The element at `position`.
    /// - Throws: The error that producing the subject ended with.
    /// - Important: Blocks the calling thread until the subject exists.
    @available(*, noasync, message: "a forwarded read blocks until the value exists; use 'await future.get()'")
    public subscript(position: Subject.Index) -> Subject.Element {
        get throws(Failure) { try resolveSubject()[position] }
    }

    /// The subject's elements in `range`: `proxy[1...]`.
    ///
    /// ```swift
    /// let lines = BackgroundFuture { try readLines(path) }
    /// let body = try lines[1...]   // ArraySlice<String>
    /// ```
    /// - Parameter range: A range of valid indices of the subject.
    /// - Returns: The subject's subsequence.
    /// - Throws: The error that producing the subject ended with.
    /// - Important: Blocks the calling thread until the subject exists.
    @available(*, noasync, message: "a forwarded read blocks until the value exists; use 'await future.get()'")
    public subscript<Range: RangeExpression>(range: Range) -> Subject.SubSequence
    where Range.Bound == Subject.Index {
        get throws(Failure) { try resolveSubject()[range] }
    }
}

extension Proxy where Subject: Collection, Failure == Never {
    /// The element of the subject at `position`: `proxy[0]`. No `try`.
    ///
    /// ```swift
    /// let primes = LazyFuture { sieve(upTo: 1_000) }
    /// print(primes[0])
    /// ```
    /// - Parameter position: A valid index of the subject.
    /// - Returns: The element at `position`.
    /// - Important: Blocks the calling thread until the subject exists.
    @available(*, noasync, message: "a forwarded read blocks until the value exists; use 'await future.get()'")
    public subscript(position: Subject.Index) -> Subject.Element {
        resolveSubject()[position]
    }

    /// The subject's elements in `range`: `proxy[1...]`. No `try`.
    ///
    /// ```swift
    /// let primes = LazyFuture { sieve(upTo: 1_000) }
    /// print(primes[..<10])
    /// ```
    /// - Parameter range: A range of valid indices of the subject.
    /// - Returns: The subject's subsequence.
    /// - Important: Blocks the calling thread until the subject exists.
    @available(*, noasync, message: "a forwarded read blocks until the value exists; use 'await future.get()'")
    public subscript<Range: RangeExpression>(range: Range) -> Subject.SubSequence
    where Range.Bound == Subject.Index {
        resolveSubject()[range]
    }
}

extension Proxy {
    /// The value for `key` in a dictionary subject: `proxy["key"]`.
    ///
    /// ```swift
    /// let settings = BackgroundFuture { try loadSettings() }   // Future<[String: String], any Error>
    /// let theme = try settings["theme"]                        // String?
    /// ```
    /// - Parameter key: The key to look up.
    /// - Returns: The value for `key`, or `nil` if the dictionary has none.
    /// - Throws: The error that producing the subject ended with.
    /// - Important: Blocks the calling thread until the subject exists.
    @available(*, noasync, message: "a forwarded read blocks until the value exists; use 'await future.get()'")
    public subscript<Key, Value>(key: Key) -> Value? where Subject == [Key: Value] {
        get throws(Failure) { try resolveSubject()[key] }
    }

    /// The value for `key` in a dictionary subject, or `defaultValue`: `proxy["key", default: 0]`.
    ///
    /// ```swift
    /// let counts = BackgroundFuture { try countWords(path) }   // Future<[String: Int], any Error>
    /// let the = try counts["the", default: 0]
    /// ```
    /// - Parameters:
    ///   - key: The key to look up.
    ///   - defaultValue: The value to return if the dictionary has none for `key`.
    /// - Returns: The value for `key`, or `defaultValue`.
    /// - Throws: The error that producing the subject ended with.
    /// - Important: Blocks the calling thread until the subject exists.
    @available(*, noasync, message: "a forwarded read blocks until the value exists; use 'await future.get()'")
    public subscript<Key, Value>(key: Key, default defaultValue: @autoclosure () -> Value) -> Value
    where Subject == [Key: Value] {
        get throws(Failure) { try resolveSubject()[key, default: defaultValue()] }
    }
}

// The non-throwing twins below work around a compiler crash: on Swift 6.3, a `get throws(Failure)`
// accessor read without `try` where `Failure == Never` crashes SILGen (signal 11), in this module
// and in user code such as `func f<T>(_ x: Future<T, Never>) -> T { x.value }`
// (swiftlang/swift#74273, fixed by swiftlang/swift#86815 after 6.3). Overload resolution picks the
// twin, and `GenericCodeTests` compiles such user code. Remove the twins once the fix ships.
extension Proxy where Failure == Never {
    /// The value for `key` in a dictionary subject: `proxy["key"]`. No `try`.
    ///
    /// ```swift
    /// let capitals = LazyFuture { loadCapitals() }   // Future<[String: String], Never>
    /// print(capitals["France"] ?? "?")
    /// ```
    /// - Parameter key: The key to look up.
    /// - Returns: The value for `key`, or `nil` if the dictionary has none.
    /// - Important: Blocks the calling thread until the subject exists.
    @available(*, noasync, message: "a forwarded read blocks until the value exists; use 'await future.get()'")
    public subscript<Key, Value>(key: Key) -> Value? where Subject == [Key: Value] {
        resolveSubject()[key]
    }

    /// The value for `key` in a dictionary subject, or `defaultValue`. No `try`.
    ///
    /// ```swift
    /// let counts = LazyFuture { countWords(text) }   // Future<[String: Int], Never>
    /// print(counts["the", default: 0])
    /// ```
    /// - Parameters:
    ///   - key: The key to look up.
    ///   - defaultValue: The value to return if the dictionary has none for `key`.
    /// - Returns: The value for `key`, or `defaultValue`.
    /// - Important: Blocks the calling thread until the subject exists.
    @available(*, noasync, message: "a forwarded read blocks until the value exists; use 'await future.get()'")
    public subscript<Key, Value>(key: Key, default defaultValue: @autoclosure () -> Value) -> Value
    where Subject == [Key: Value] {
        resolveSubject()[key, default: defaultValue()]
    }
}
