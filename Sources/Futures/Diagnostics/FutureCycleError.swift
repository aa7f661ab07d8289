/// The error of a derived future given itself to wait for (its `flatMap` closure returned that
/// future or one derived from it; Promises/A+ 2.3.1).
///
/// Only a future whose error type is `any Error` fails with it; others trap with the same message.
/// `flatMapError` and `Future.retry` check the same way.
///
/// ```swift
/// let cell = Promise<Future<Int, any Error>, Never>()
/// let source = LazyFuture { () throws -> Int in 1 }
/// let looped = source.flatMap { _ in cell.future.value }   // returns `looped` itself
/// cell.succeed(looped)
/// if case .failure(let error as FutureCycleError)? = looped.peek { print(error.site) }   // after a read
/// ```
public struct FutureCycleError: Error, Hashable, CustomStringConvertible {
    /// Where the future that would have waited for itself was made, as `Module/File.swift:line`.
    public let site: String

    /// Makes the error of the future made at `site`.
    ///
    /// ```swift
    /// throw FutureCycleError(site: "App/Loop.swift:2")
    /// ```
    public init(site: String) { self.site = site }

    /// What happened and where.
    public var description: String {
        "the future made at \(site) was given itself to wait for: the closure of its flatMap returned that future, "
            + "or a future derived from it, which would never resolve"
    }
}
