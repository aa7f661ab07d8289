/// Takes a value the optimizer must assume is used, so a measured loop cannot be folded away.
///
/// It is a call into another module that does nothing: every row of a table pays it alike, and
/// unlike a store to a shared global it costs nothing more when several threads call it.
@inline(never) @_optimize(none)
public func sink(_ value: Int) {}

/// Returns `value` through a call the optimizer cannot see into, so a constant stays unknown.
@inline(never) @_optimize(none)
public func opaque(_ value: Int) -> Int { value }
