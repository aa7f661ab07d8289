/// Whether `failure` is `any Error`: the one error type that a cancellation can resolve a future
/// with, so the one whose futures may have a second completer.
///
/// The comparison `Failure.self == (any Error).self` is not folded by the optimizer for a
/// concrete type: it asked the runtime for the existential's metadata on every call, on the path
/// of every `map` step and every lazy future's first read. A cast of `any Error`'s metatype to
/// `failure`'s is folded to a constant wherever the caller is specialized; unspecialized, it is
/// a runtime call, which the size test before it skips for most error types.
@inlinable
func _isAnyError<Failure: Error>(_ failure: Failure.Type) -> Bool {
    MemoryLayout<Failure>.size == MemoryLayout<any Error>.size && (any Error).self is Failure.Type
}
