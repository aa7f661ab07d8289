/// Whether `failure` is `any Error`, the one error type a cancellation can resolve a future with.
/// Not `Failure.self == (any Error).self`, which the optimizer does not fold: the cast folds to a
/// constant where specialized, and the size test skips the runtime call for most error types
/// unspecialized. It is on every map step's path.
@inlinable
func _isAnyError<Failure: Error>(_ failure: Failure.Type) -> Bool {
    MemoryLayout<Failure>.size == MemoryLayout<any Error>.size && (any Error).self is Failure.Type
}
