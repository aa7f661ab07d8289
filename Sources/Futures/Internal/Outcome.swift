/// What a future holds in its result slot: nothing yet, or its result.
///
/// It stands in for `Result<Value, Failure>?` in the stored property because it is one generic
/// type, not two: code that is not specialized (the future's deinit, which always runs in this
/// module) asks the runtime for the metadata of each composed type it destroys, and one lookup
/// costs about 330 instructions (BENCHMARKS.md).
@usableFromInline
enum Outcome<Value, Failure: Error> {
    case none
    case success(Value)
    case failure(Failure)

    @inlinable
    init(_ result: Result<Value, Failure>) {
        switch result {
        case .success(let value): self = .success(value)
        case .failure(let error): self = .failure(error)
        }
    }

    /// The result, or `nil` for `.none`.
    @inlinable
    var result: Result<Value, Failure>? {
        switch self {
        case .none: nil
        case .success(let value): .success(value)
        case .failure(let error): .failure(error)
        }
    }
}
