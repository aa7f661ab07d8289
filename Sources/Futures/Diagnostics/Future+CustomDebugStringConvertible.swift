extension Future: CustomDebugStringConvertible {
    /// What a debugger should see: the kind of future, its state, and its value or error once
    /// it has one. Never blocks and never starts work.
    ///
    /// ```swift
    /// let table = LazyFuture { buildTable() }
    /// debugPrint(table)   // LazyFuture<Table>(pending, created at App/Tables.swift:12)
    /// _ = table.value
    /// debugPrint(table)   // LazyFuture<Table>(resolved: Table(rows: 3))
    /// ```
    ///
    /// The states are `pending` (the work has not started, or the promise is not completed),
    /// `running`, `resolved: value` and `failed: error`; an unresolved future that is not a
    /// ``LazyFuture`` or a ``BackgroundFuture`` also says how it resolves (`promise`, `derived`,
    /// `derived, lazy`). The value and the error are shown with
    /// `String(reflecting:)`. Unresolved futures show where they were created,
    /// to find the one a program waits for.
    public var debugDescription: String {
        // The phase is read before the result: if the future resolves in between, the result
        // is shown, never an unresolved phase beside a future that has a result.
        let phase = _phaseName
        let role = _kind.role.map { ", \($0)" } ?? ""
        switch peek {
        case .success(let value)?:
            return "\(_typeDescription)(resolved: \(String(reflecting: value)))"
        case .failure(let error)?:
            return "\(_typeDescription)(failed: \(String(reflecting: error)))"
        case nil:
            return "\(_typeDescription)(\(phase)\(role), created at \(_creationSite))"
        }
    }
}
