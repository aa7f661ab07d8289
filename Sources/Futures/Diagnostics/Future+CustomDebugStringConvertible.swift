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
    /// States: `pending`, `running`, `resolved: value`, `failed: error` (shown with
    /// `String(reflecting:)`); an unresolved promise or derived future says so, and where it was made.
    public var debugDescription: String {
        // Phase before result: a future resolving in between shows its result, never a stale phase.
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
