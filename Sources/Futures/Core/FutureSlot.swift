/// What a future holds beside its state word: its work until the work runs, then its outcome.
///
/// One slot for both, because a future never needs both at once: the thread that moves the
/// phase out of `pending` owns the slot (`StateWord`), takes the work out to run it or drops
/// it, and writes the outcome before it publishes `resolved`. Readers look at the slot only once
/// they see `resolved` without `cancelled`.
///
/// It is one generic type, not a composition of two (such as `Result<Value, Failure>?`):
/// code that is not specialized, like the future's deinit, asks the runtime for the metadata of
/// each composed type it destroys, and each lookup is a hashed cache search.
@usableFromInline
enum FutureSlot<Value, Failure: Error> {
    // The order of the cases is the order of their tags: `success` first, so that the read path
    // tests the tag against zero.
    case success(Value)
    case failure(Failure)
    /// The work, until it is claimed or dropped.
    case work(@Sendable () throws(Failure) -> Value)
    /// No work and no outcome: a promise's or a derived future's before it resolves, a
    /// running future's, or a cancelled one's.
    case empty

    @inlinable
    init(_ result: Result<Value, Failure>) {
        switch result {
        case .success(let value): self = .success(value)
        case .failure(let error): self = .failure(error)
        }
    }
}
