public import Synchronization

/// What a future holds beside its state word: its work until the work runs, then its outcome.
///
/// One slot for both: the thread that moves the phase out of `pending` owns it (`StateWord`),
/// takes the work out or drops it, and writes the outcome before publishing `resolved`. Readers
/// look only once they see `resolved` without `cancelled`.
///
/// One generic enum, not `Result<Value, Failure>?`: unspecialized code looks up the metadata of
/// every composed type it touches. Public only because ``Future``'s superclass names it.
public enum _FutureSlot<Value, Failure: Error> {
    // `success` first: the read path tests the tag against zero.
    case success(Value)
    case failure(Failure)
    /// The work, until it is claimed or dropped.
    case work(@Sendable () throws(Failure) -> Value)
    /// Before resolution of a promise or derived future, while running, or cancelled.
    case empty

    @inlinable
    init(_ result: Result<Value, Failure>) {
        switch result {
        case .success(let value): self = .success(value)
        case .failure(let error): self = .failure(error)
        }
    }
}

/// The layer that holds the slot, between `_FutureCore` and ``Future``. Not API.
///
/// A generic class over the slot type because a deinit is never specialized: the deinit reads the
/// slot's type from the class metadata instead of a runtime cache lookup (gated: promise
/// create/succeed/read).
public class _FutureWithSlot<Slot: _FutureSlotRunning>: _FutureCore, @unchecked Sendable {
    // @unchecked: `_slot` is owned by the thread that moved the phase out of `pending` (claimer or
    // completer), then by the `beginCompletion` winner, which writes it before a releasing publish;
    // readers touch it only after an acquiring load sees `resolved` without `cancelled`.

    /// The phases already give one thread at a time access, so no dynamic exclusivity check
    /// (gated: resolved read, promise create+succeed+read).
    @usableFromInline @exclusivity(unchecked) final var _slot: Slot

    @usableFromInline
    init(slot: Slot, state: StateWord, links: FutureLinks) {
        _slot = slot
        super.init(state: state, links: links)
    }

    /// For a reader that found the work up a chain and does not know its types. Unspecialized: the
    /// slot's type comes from the class metadata, so nothing is looked up.
    override final func _runClaimedWorkErased() {
        #if DEBUG
            let watch = ReaderRunWatch(running: self)
            defer { watch.finish(running: self) }
        #endif
        // Whether it can be cancelled is unknown here: the CAS is right for both.
        _finishRunning(succeeded: Slot._runWork(in: &_slot, of: self), cancellable: true)
    }
}

extension _FutureWithSlot {
    /// Publishes the outcome the runner wrote, from `running`. Only a cancellation moves a running
    /// phase, so an uncancellable runner (`Failure` not `any Error`) publishes with one add that keeps
    /// the flags; any other takes one CAS that sees a cancellation.
    ///
    /// - Returns: `false` if a cancellation resolved the future meanwhile: the outcome is dropped,
    ///   and this returns once the cancellation is published.
    ///
    /// Inlinable so `succeeded` and `cancellable` are constants where the caller knows the types.
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
                _afterPublishing(previous: previous, droppingLinks: false)
            }
            return true
        case .cancelled:
            // A cancellation never touches the slot and readers skip it: the runner still owns it.
            _slot = Slot._empty
            _waitUntilResolved()
            return false
        }
    }
}

/// The slot's operations for code that does not know the future's types. Public only because
/// `_FutureWithSlot`'s parameter is constrained to it.
public protocol _FutureSlotRunning {
    /// Runs the work with `future` on the chain of running work; returns whether it succeeded.
    static func _runWork(in slot: UnsafeMutablePointer<Self>, of future: _FutureCore) -> Bool

    static var _empty: Self { get }
}

extension _FutureSlot: _FutureSlotRunning {
    public static func _runWork(in slot: UnsafeMutablePointer<Self>, of future: _FutureCore) -> Bool {
        var outcome = Self.empty
        var succeeded = false
        do {
            var taken = Self.empty
            swap(&taken, &slot.pointee)
            guard case .work(let body) = consume taken else { future._missingWork() }
            CurrentWork.run(future) {
                do throws(Failure) {
                    outcome = .success(try body())
                    succeeded = true
                } catch {
                    outcome = .failure(error)
                }
            }
        }
        // The closure and its captures are released before the future resolves: a woken reader can rely
        // on them being gone.
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
