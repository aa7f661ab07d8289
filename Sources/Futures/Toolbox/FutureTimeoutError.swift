/// The error of a future made by ``Future/timeout(after:fileID:line:)`` whose source did not
/// resolve in time.
///
/// ```swift
/// do {
///     let page = try download.timeout(after: .seconds(5)).value
///     show(page)
/// } catch let error as FutureTimeoutError {
///     print(error)   // "timed out after 5.0 seconds (the timeout made at Loader.swift:42)"
/// }
/// ```
public struct FutureTimeoutError: Error, Hashable, CustomStringConvertible {
    /// How long the source was given.
    public let timeout: Duration
    /// Where the timeout was made, as `File.swift:line`.
    public let site: String

    /// Makes the error of a timeout of `timeout`, made at `site`.
    ///
    /// ```swift
    /// throw FutureTimeoutError(timeout: .seconds(5), site: "Loader.swift:42")
    /// ```
    public init(timeout: Duration, site: String) {
        self.timeout = timeout
        self.site = site
    }

    /// What happened and where: "timed out after 5.0 seconds (the timeout made at Loader.swift:42)".
    public var description: String { "timed out after \(timeout) (the timeout made at \(site))" }
}
