/// The error of a derived future that was given itself to wait for: the closure of its `flatMap`
/// returned the very future that `flatMap` makes, or a future derived from it, which could never
/// resolve (Promises/A+ 2.3.1; PromiseKit's `returnedSelf`).
///
/// Only a future whose error type is `any Error` fails with it; a future that cannot hold it
/// stops the program with the same message instead. `flatMapError` and `Future.retry` check
/// the futures their closures return in the same way.
///
/// ```swift
/// let cell = Promise<Future<Int, any Error>, Never>()
/// let source = LazyFuture { () throws -> Int in 1 }
/// let looped = source.flatMap { _ in cell.future.value }   // returns `looped` itself
/// cell.succeed(looped)
/// do {
///     _ = try looped.value
/// } catch let error as FutureCycleError {
///     print(error)   // "the future made at App/Loop.swift:3 was given itself to wait for: …"
/// }
/// ```
public struct FutureCycleError: Error, Hashable, CustomStringConvertible {
    /// Where the future that would have waited for itself was made, as `Module/File.swift:line`.
    public let site: String

    /// Makes the error of the future made at `site`.
    ///
    /// ```swift
    /// throw FutureCycleError(site: "App/Loop.swift:2")
    /// ```
    public init(site: String) {
        self.site = site
    }

    /// What happened and where: "the future made at App/Loop.swift:2 was given itself to wait
    /// for: …".
    public var description: String {
        "the future made at \(site) was given itself to wait for: the closure of its flatMap returned that future, "
            + "or a future derived from it, which would never resolve"
    }
}
