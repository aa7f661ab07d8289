import Futures

/// What a ``DiscardableLazyFuture`` knows, under its lock.
struct DiscardableState<Value: Sendable, Failure: Error> {
    enum Content {
        /// No result: before the first read, or after a discard.
        case empty
        /// A reader computes it; `runner` is its thread, or `nil` for the global context.
        case computing(runner: ObjectIdentifier?)
        /// The result of the last computation.
        case held(Result<Value, Failure>)
    }

    var content = Content.empty
    /// Pins taken by `beginContentAccess()` and not yet released.
    var pins = 0
    /// Whether a copy of the value is on disk, to read back instead of computing.
    var storedOnDisk = false
    /// How many times the work has run.
    var computations = 0
    /// What the async readers of the computation under way wait on: made by the first of them,
    /// completed with the computation's result.
    var asyncResult: Promise<Value, Failure>?
}
