/// Something that produces a subject value on demand, and stands in for it.
///
/// A proxy forwards to its subject what Swift can forward at compile time, as defaults of this
/// protocol's extensions: member reads through key paths (`proxy.count`), member writes when the
/// subject is a class (`proxy.title = "x"`), the subscripts of collections and dictionaries
/// (`proxy[0]`, `proxy["key"]`), optional-chained reads when the subject is optional, and the
/// subject itself through ``callAsFunction()``, for everything else — methods above all:
/// `proxy().uppercased()`.
///
/// ```swift
/// import FutureProxy
///
/// let names = LazyFuture { loadNames() }   // Future<[String], Never>, a Proxy
/// print(names.count)                       // runs loadNames(), then reads count
/// print(names[0], names().sorted())        // no more work: the value is there
/// ```
///
/// ``Futures/Future`` is the proxy this library provides; conform your own types to forward the
/// same way to a value they load, cache or look up. Each forwarded read calls
/// ``resolveSubject()``, so a proxy whose subject is expensive should remember it.
///
/// Members of the conforming type itself always win over forwarded ones: a future's `value`,
/// `result`, `peek`, `isResolved` and `get()` are the future's, and `future().value` reaches a
/// member of the subject with one of those names.
///
/// - Important: Forwarded reads call ``resolveSubject()``, which for a future blocks the calling
///   thread until the future resolves. So the forwarding defaults are unavailable from async
///   code, whatever the proxy: there, read the subject once (`await future.get()` for a
///   future) and use it.
@dynamicMemberLookup
public protocol Proxy<Subject, Failure> {
    /// The value this proxy stands in for.
    associatedtype Subject

    /// The error producing the subject can end with; `Never` if it cannot fail.
    associatedtype Failure: Error

    /// Produces the subject, waiting for it or computing it if needed.
    ///
    /// Every forwarding default calls this method. Call it yourself through
    /// ``callAsFunction()``: `proxy()`.
    ///
    /// ```swift
    /// struct Shouting: Proxy {
    ///     let text: String
    ///     func resolveSubject() -> String { text.uppercased() }
    /// }
    /// let loud = Shouting(text: "hi")
    /// print(loud.count, loud())   // 2 HI
    /// ```
    /// - Returns: The subject.
    /// - Throws: The error that producing the subject ended with, typed as `Failure`.
    func resolveSubject() throws(Failure) -> Subject
}
