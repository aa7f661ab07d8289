public import Synchronization

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
/// and destroying a stored property needs its type's metadata. Here the slot's type is this
/// class's own generic parameter, which the deinit reads from the object's class metadata instead
/// of looking `_FutureSlot<Value, Failure>` up in the runtime's cache (gated: promise
/// create/succeed/read).
public class _FutureWithSlot<Slot: _FutureSlotRunning>: _FutureCore, @unchecked Sendable {
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
    @usableFromInline @exclusivity(unchecked) final var _slot: Slot

    @usableFromInline
    init(slot: Slot, state: StateWord, links: FutureLinks) {
        _slot = slot
        super.init(state: state, links: links)
    }

    /// Runs the work this thread claimed and resolves the future with its outcome, for a caller
    /// that does not know the future's types and needs no result: a reader that found the work up
    /// a chain. A pool's worker runs a background future's job through the typed path
    /// (`_runFromQueue`), and a reader of the future itself through `_runClaimedWork()`.
    ///
    /// This code is not specialized: the slot's type is this class's parameter, read from the
    /// object's class metadata, so the run names no generic type to look up.
    override final func _runClaimedWorkErased() {
        #if DEBUG
            let watch = ReaderRunWatch(running: self)
            defer { watch.finish(running: self) }
        #endif
        // Unspecialized, this code does not know whether the future can be cancelled: the
        // compare-and-swap is right for both.
        _finishRunning(succeeded: Slot._runWork(in: &_slot, of: self), cancellable: true)
    }
}

extension _FutureWithSlot {
    /// Publishes the outcome this runner wrote in the slot, from `running`; `succeeded` says it
    /// is a value.
    ///
    /// Only a cancellation moves a running future's phase. So a runner whose future cannot be
    /// cancelled (`cancellable` false: its `Failure` is not `any Error`) is the one thread that
    /// can: one add publishes the outcome (`StateWord.publishIncrement(from:succeeded:)`) and
    /// keeps the flags that readers and callbacks set meanwhile. Any other runner takes one
    /// compare-and-swap, which sees a cancellation (`StateWord.finishRunning(succeeded:)`).
    ///
    /// - Returns: `true` if it published; `false` if a cancellation resolved the future while
    ///   the work ran: the outcome is dropped, and the call returns once the cancellation is
    ///   published.
    ///
    /// Always inlined, so that `succeeded` and `cancellable` are constants where the caller knows
    /// the types: called with a variable, the compare-and-swap loop tested whether the word
    /// changed at each turn.
    @inlinable
    @discardableResult
    final func _finishRunning(succeeded: Bool, cancellable: Bool) -> Bool {
        if !cancellable {
            assert(
                StateWord(raw: _state.load(ordering: .relaxed)).phase == .running,
                "a future that cannot be cancelled left running while its work ran")
            _publishResolution(
                adding: StateWord.publishIncrement(from: .running, succeeded: succeeded), droppingLinks: false)
            return true
        }
        switch _state.transition({ $0.finishRunning(succeeded: succeeded) }) {
        case .published(let previous):
            if previous.needsAnnouncement {
                _announceResolution(previous: previous)
            }
            return true
        case .cancelled:
            // The cancellation never reads or writes the slot, and readers of a cancelled future
            // do not look at it: the runner still owns it.
            _slot = Slot._empty
            _waitUntilResolved()
            return false
        }
    }
}

/// What a future's slot does for code that does not know the future's types: run the work it
/// holds, and be emptied. Not API: public, with an underscore, only because the parameter of
/// `_FutureWithSlot` is constrained to it.
public protocol _FutureSlotRunning {
    /// Runs the work that `slot` holds, with `future` on the thread's chain of running work, and
    /// leaves the outcome in `slot`; returns whether it is a value.
    static func _runWork(in slot: UnsafeMutablePointer<Self>, of future: _FutureCore) -> Bool

    /// A slot with no work and no outcome.
    static var _empty: Self { get }
}

extension _FutureSlot: _FutureSlotRunning {
    // Always inlined into the type-erased run (gated: map step on a lazy source).
    @inline(__always)
    public static func _runWork(in slot: UnsafeMutablePointer<Self>, of future: _FutureCore) -> Bool {
        var outcome = Self.empty
        var succeeded = false
        do {
            swap(&outcome, &slot.pointee)
            guard case .work(let body) = consume outcome else { future._missingWork() }
            let chain = CurrentWork.push(future)
            do throws(Failure) {
                outcome = .success(try body())
                succeeded = true
            } catch {
                outcome = .failure(error)
            }
            CurrentWork.pop(chain)
        }
        // The work's closure, and all it captured, is released by now (the end of the scope that
        // held it), before the future resolves: a reader that wakes can rely on it being gone.
        swap(&slot.pointee, &outcome)
        return succeeded
    }

    @inlinable
    public static var _empty: Self { .empty }
}

extension _FutureCore {
    @usableFromInline
    final func _missingWork() -> Never {
        preconditionFailure("\(_description) created at \(_creationSite) has no work to run")
    }
}
