/// What a future holds beside its state word: its work until the work runs, then its outcome.
///
/// One slot for both, because a future never needs both at once: the thread that moves the
/// phase out of `pending` owns the slot (`StateWord`), takes the work out to run it or drops
/// it, and writes the outcome before it publishes `resolved`. Readers look at the slot only once
/// they see `resolved` without `cancelled`.
///
/// It is one generic type, not a composition of two (such as `Result<Value, Failure>?`):
/// code that is not specialized asks the runtime for the metadata of each composed type it
/// touches, and each lookup is a hashed cache search.
///
/// Public, with an underscore, only because ``Future``'s superclass names it
/// (`_FutureWithSlot<_FutureSlot<Value, Failure>>`); it is not API.
public enum _FutureSlot<Value, Failure: Error> {
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

/// The layer of every future that holds its slot, between `_FutureCore` and ``Future``. Not API:
/// public only because a public class's superclass must be.
///
/// Why a generic class of its own, over the slot's type: a class's deinit is never specialized,
/// and destroying a stored property needs its type's metadata. Stored in `Future<Value, Failure>`,
/// the slot's type was `_FutureSlot<Value, Failure>`, which the deinit of every future looked up
/// in the runtime's cache (a hashed search, 336 instructions: a third of a promise's whole round
/// trip). Here the slot's type is this class's own generic parameter, which the deinit reads from
/// the object's class metadata, filled in once per `Future<Value, Failure>` type.
public class _FutureWithSlot<Slot>: _FutureCore, @unchecked Sendable {
    // @unchecked: `_slot` is owned by the thread that moved the phase out of `pending` (the
    // claimer, which takes the work out to run it, or a completer, which drops it) and then by
    // the thread that wins `beginCompletion`, which writes the outcome before it publishes
    // `resolved` with a releasing add; readers look at it only after an acquiring load sees
    // `resolved` without `cancelled` (see `StateWord`). The rest is `_FutureCore`'s.

    /// The work until it runs, then the outcome.
    ///
    /// Exclusivity is not checked at run time on this slot: the state word's phases already give
    /// one thread at a time access to it (see above), and the dynamic check would cost more than
    /// a lazy future's claim, run and completion together.
    @exclusivity(unchecked) @usableFromInline final var _slot: Slot

    @usableFromInline
    init(slot: Slot, state: StateWord, links: FutureLinks) {
        _slot = slot
        super.init(state: state, links: links)
    }
}
