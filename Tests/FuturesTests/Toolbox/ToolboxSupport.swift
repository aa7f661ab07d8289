/// A concrete error type for the toolbox's typed-error tests.
enum LoadError: Error, Equatable {
    case timedOut
    case unreachable(Int)
}
