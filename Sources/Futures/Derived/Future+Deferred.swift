/// A view on a future whose member reads give futures instead of values.
///
/// MAFuture's compound future: `future.deferred.count` is a future of the count, derived with
/// ``Future/map(fileID:line:_:)-(_,_,(Value)->NewValue)``, so nothing runs until it is read.
///
/// ```swift
/// let report = LazyFuture { buildReport() }
/// let pages = report.deferred.pageCount      // Future<Int, Never>; the report is not built
/// print(pages.value)                         // builds it now
/// ```
@dynamicMemberLookup
public struct DeferredMembers<Value: Sendable, Failure: Error>: Sendable {
    /// The future whose members are read.
    public let future: Future<Value, Failure>

    /// A future of the member at `keyPath` of the value.
    ///
    /// ```swift
    /// let count = names.deferred.count   // Future<Int, Never>
    /// ```
    public subscript<Member: Sendable>(
        dynamicMember keyPath: any KeyPath<Value, Member> & Sendable
    ) -> Future<Member, Failure> {
        future.map { $0[keyPath: keyPath] }
    }
}

extension Future {
    /// A view whose member reads give futures derived from this one, without resolving it.
    ///
    /// ```swift
    /// let title = page.deferred.title    // Future<String, any Error>
    /// ```
    public var deferred: DeferredMembers<Value, Failure> { DeferredMembers(future: self) }
}
