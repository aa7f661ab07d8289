// Member reads and writes, forwarded through key paths.
//
// Each typed-throws accessor has a non-throwing twin in a `where Failure == Never` extension: on
// this toolchain, reading a `get throws(Failure)` accessor without `try` where `Failure == Never`
// crashes the compiler, even in user code; the twin is what such code picks.

extension Proxy {
    /// Reads a member of the subject: `proxy.count` is `subject.count`.
    ///
    /// ```swift
    /// let page = BackgroundFuture { try fetchPage() }   // Future<Page, any Error>
    /// let title = try page.title                       // waits for the page, then reads title
    /// ```
    /// - Parameter keyPath: The member, as a key path of the subject.
    /// - Returns: The member's value.
    /// - Throws: The error that producing the subject ended with.
    /// - Important: Blocks the calling thread until the subject exists.
    @available(*, noasync, message: "a forwarded read blocks until the value exists; use 'await future.get()'")
    public subscript<Member>(dynamicMember keyPath: KeyPath<Subject, Member>) -> Member {
        get throws(Failure) { try resolveSubject()[keyPath: keyPath] }
    }

    /// Reads a member of an optional subject, optional-chained: `nil` when the subject is `nil`.
    ///
    /// ```swift
    /// let nickname = LazyFuture { lookUpNickname() }   // Future<String?, Never>
    /// let length = nickname.count                      // Int?
    /// ```
    /// - Parameter keyPath: The member, as a key path of the wrapped type.
    /// - Returns: The member's value, or `nil` if the subject is `nil`.
    /// - Throws: The error that producing the subject ended with.
    /// - Important: Blocks the calling thread until the subject exists.
    @available(*, noasync, message: "a forwarded read blocks until the value exists; use 'await future.get()'")
    public subscript<Wrapped, Member>(dynamicMember keyPath: KeyPath<Wrapped, Member>) -> Member?
    where Subject == Wrapped? {
        get throws(Failure) { try resolveSubject()?[keyPath: keyPath] }
    }

    /// Reads an optional member of an optional subject, flattened like optional chaining:
    /// `Member?`, not `Member??`.
    ///
    /// ```swift
    /// let user = LazyFuture { findUser(id) }   // Future<User?, Never>
    /// let email = user.email                   // String?, for `var email: String?`
    /// ```
    /// - Parameter keyPath: The member, as a key path of the wrapped type.
    /// - Returns: The member's value, or `nil` if the subject or the member is `nil`.
    /// - Throws: The error that producing the subject ended with.
    /// - Important: Blocks the calling thread until the subject exists.
    @available(*, noasync, message: "a forwarded read blocks until the value exists; use 'await future.get()'")
    public subscript<Wrapped, Member>(dynamicMember keyPath: KeyPath<Wrapped, Member?>) -> Member?
    where Subject == Wrapped? {
        get throws(Failure) { try resolveSubject()?[keyPath: keyPath] }
    }
}

// The non-throwing twins below work around a compiler crash: on Swift 6.3, a `get throws(Failure)`
// accessor read without `try` where `Failure == Never` crashes SILGen (signal 11), in this module
// and in user code such as `func f<T>(_ x: Future<T, Never>) -> T { x.value }`
// (swiftlang/swift#74273, fixed by swiftlang/swift#86815 after 6.3). Overload resolution picks the
// twin, and `GenericCodeTests` compiles such user code. Remove the twins once the fix ships.
extension Proxy where Failure == Never {
    /// Reads a member of the subject: `proxy.count` is `subject.count`. No `try`: producing
    /// the subject cannot fail.
    ///
    /// ```swift
    /// let words = LazyFuture { corpus.split(separator: " ") }
    /// print(words.count)
    /// ```
    /// - Parameter keyPath: The member, as a key path of the subject.
    /// - Returns: The member's value.
    /// - Important: Blocks the calling thread until the subject exists.
    @available(*, noasync, message: "a forwarded read blocks until the value exists; use 'await future.get()'")
    public subscript<Member>(dynamicMember keyPath: KeyPath<Subject, Member>) -> Member {
        resolveSubject()[keyPath: keyPath]
    }

    /// Reads a member of an optional subject, optional-chained. No `try`.
    ///
    /// ```swift
    /// let nickname = LazyFuture { lookUpNickname() }   // Future<String?, Never>
    /// if let length = nickname.count { print(length) }
    /// ```
    /// - Parameter keyPath: The member, as a key path of the wrapped type.
    /// - Returns: The member's value, or `nil` if the subject is `nil`.
    /// - Important: Blocks the calling thread until the subject exists.
    @available(*, noasync, message: "a forwarded read blocks until the value exists; use 'await future.get()'")
    public subscript<Wrapped, Member>(dynamicMember keyPath: KeyPath<Wrapped, Member>) -> Member?
    where Subject == Wrapped? {
        resolveSubject()?[keyPath: keyPath]
    }

    /// Reads an optional member of an optional subject, flattened like optional chaining. No `try`.
    ///
    /// ```swift
    /// let user = LazyFuture { findUser(id) }   // Future<User?, Never>
    /// let email = user.email                   // String?, for `var email: String?`
    /// ```
    /// - Parameter keyPath: The member, as a key path of the wrapped type.
    /// - Returns: The member's value, or `nil` if the subject or the member is `nil`.
    /// - Important: Blocks the calling thread until the subject exists.
    @available(*, noasync, message: "a forwarded read blocks until the value exists; use 'await future.get()'")
    public subscript<Wrapped, Member>(dynamicMember keyPath: KeyPath<Wrapped, Member?>) -> Member?
    where Subject == Wrapped? {
        resolveSubject()?[keyPath: keyPath]
    }
}

extension Proxy where Subject: AnyObject, Failure == Never {
    /// Reads or writes a member of a subject that is an object: `proxy.title = "x"` sets the
    /// object's `title`.
    ///
    /// Writes forward only when producing the subject cannot fail, because a Swift setter
    /// cannot throw; for a future that can fail, write through the value: `try future().title = "x"`.
    /// A subject that is a value type is never written through a proxy: the proxy hands out
    /// copies of it.
    ///
    /// ```swift
    /// let controller = LazyFuture { makeController() }   // Future<Controller, Never>
    /// controller.title = "Inbox"                         // makes the controller, then sets title
    /// ```
    /// - Parameter keyPath: The member, as a reference-writable key path of the subject.
    /// - Important: Blocks the calling thread until the subject exists.
    @available(*, noasync, message: "a forwarded read blocks until the value exists; use 'await future.get()'")
    public subscript<Member>(dynamicMember keyPath: ReferenceWritableKeyPath<Subject, Member>) -> Member {
        get { resolveSubject()[keyPath: keyPath] }
        nonmutating set { resolveSubject()[keyPath: keyPath] = newValue }
    }
}
