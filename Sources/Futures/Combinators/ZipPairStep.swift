/// The links of a `zip` of two futures, which are also the callback it parks on both
/// (`ParkedCallback.step`), with what has arrived: one object where the zip of any number
/// makes a closure per source, a lock box, its arrays, the decision's array and cursor. The step
/// keeps its second source and its registrations itself, so that it needs no extras.
///
/// The step holds the child strongly until it is decided, as the callbacks of `zip` of any number
/// do: a zip with only an `onSuccess` must still resolve. The child holds the step (its links), so
/// the two make a cycle while the zip is undecided, broken when it can never be decided:
/// - it is decided (`resolveOwner(from:)`): the child is handed to the resolution;
/// - the first source is freed pending (`abandonStep(into:)`): nothing can decide it now;
/// - it is cancelled, which takes its callbacks back (`abandonStep(into:)` again);
/// - the second is freed pending after the first succeeded, or the first succeeds after the
///   second was freed pending. Freed while the first is pending, the second leaves the child to
///   the first, whose failure still decides it.
///
/// Of a lazy source, the step is parked only when a reader first demands the zip
/// (`connectOnDemand(owner:first:)`, as a lazy `map`'s step is): parked at once, it would make
/// the child and its lazy sources keep each other for ever if the zip is never read.
///
/// What arrives is read and written under the child's stripe lock, which guards its links (this
/// object) already: the two sources resolve on any threads, and a source's deinit may abandon the
/// step while the other one's resolution runs it. A lock of its own would be an allocation more
/// (a `Mutex` would be one field, but ThreadSanitizer does not see its wait on Linux).
@usableFromInline
final class _ZipPairStep: DerivedLinks, DerivedStep, @unchecked Sendable {
    // @unchecked: `arrivals` is read and written under the stripe lock of `childKey`, after
    // `attach(_:)` wrote both before the step was parked (the parking's lock publishes them);
    // `body` and `firstSource` never change; the fields of `DerivedLinks` are guarded as there.

    /// How the zip is decided: by the first source's failure, by the second's after the first
    /// succeeded, or by both values.
    @usableFromInline
    enum Decision {
        case firstFailed(_FutureCore)
        case secondFailed(_FutureCore)
        case succeeded(_FutureCore, _FutureCore)
    }

    /// Resolves the child from the decision: a closure that captures nothing, made where `zip` is
    /// specialized for its types (this class's own methods are not).
    @usableFromInline typealias Body = @Sendable (_FutureCore, Decision) -> Void

    private struct Arrivals {
        /// The child, until it is decided or can never be.
        var child: _FutureCore?
        var first: _FutureCore?
        var second: _FutureCore?
        /// The second source was freed pending: only the first's failure can decide the zip.
        var secondLost = false
    }

    /// What one arrival or abandonment leaves to do, outside the lock.
    private enum Outcome {
        case none
        case decided(_FutureCore, Decision, arrived: (_FutureCore?, _FutureCore?))
        /// The child can never be decided: let go of it, and of the sources that arrived.
        case dropped(_FutureCore, arrived: (_FutureCore?, _FutureCore?))
    }

    @exclusivity(unchecked) private var arrivals = Arrivals()
    /// The child's identity, for its stripe's lock; set with the child, before the step is parked.
    @exclusivity(unchecked) private var childKey = ObjectIdentifier(_ZipPairStep.self)
    /// The first source's identity, to tell it apart from the second (`zip(f, f)` gives both the
    /// same). Only a source calls the step, and both were alive together when it was made, so no
    /// other future can have this identity when one does.
    private let firstSource: ObjectIdentifier
    private let body: Body
    /// The second source, kept here rather than in the links' extras (`DerivedLinks.keepsPair`):
    /// with the registrations below, a pending zip needs no extras and no arrays, and its success
    /// takes back no callback. Guarded as the links' own `first` is.
    @exclusivity(unchecked) private var second: Upstream
    /// The callbacks this step parked on the sources, to take back once the zip is decided
    /// (`takePaired(more:detachments:)`); each is forgotten when its source arrives, whose
    /// resolution handed the callback over already. Under the child's stripe lock.
    @exclusivity(unchecked) private var firstRegistration: CallbackRegistration?
    @exclusivity(unchecked) private var secondRegistration: CallbackRegistration?

    /// Of a lazy zip, both sources until the first reader's demand connects the step
    /// (`connectOnDemand(owner:first:)`), a `cancel()` lets go of them (`abandonStep(into:)`), or
    /// the step is freed with its child. Held strongly: the links only watch a source that is not
    /// lazy, and a resolved one that nobody else holds, `Future(value:)` made in the call, would
    /// be gone by the time the zip is read. (A lazy source is held by the links too, which let go
    /// of it inside the release trampoline first: so an unread chain of lazy zips is still freed
    /// link by link.) Written by `connectOnDemandLater` before the child exists, then only by the
    /// thread that clears `connectsOnDemand` under the child's stripe lock.
    @exclusivity(unchecked) private var sourcesToConnect: (_FutureCore, _FutureCore)?

    /// The links of a zip of `first` and `second`, which `attach(_:)` gives its child next.
    @usableFromInline
    init(first: _FutureCore, second: _FutureCore, body: @escaping Body) {
        firstSource = ObjectIdentifier(first)
        self.body = body
        self.second = Upstream(second)
        super.init(firstOfPair: first)
        keepsPair = true
    }

    /// Gives the step its child, before the step is parked on the sources.
    @usableFromInline
    func attach(_ child: _FutureCore) {
        arrivals.child = child
        childKey = ObjectIdentifier(child)
    }

    /// Makes this the links of a lazy zip: nothing is parked until a reader demands the child.
    /// Parked at once, the step would make the child and its lazy sources keep each other, a
    /// cycle that nothing breaks if the zip is never read.
    @usableFromInline
    func connectOnDemandLater(first: _FutureCore, second: _FutureCore) {
        sourcesToConnect = (first, second)
        connectsOnDemand = true
    }

    /// Parks the step on both sources for `owner`, the zip, when a reader first demands it
    /// (`source`, the first, is in `sourcesToConnect` too).
    @usableFromInline
    func connectOnDemand(owner: _FutureCore, first: _FutureCore?) {
        guard let (first, second) = sourcesToConnect.take() else { return }
        attach(owner)
        let firstRegistration = first.addResolutionCallback(parked: .step(self))
        let secondRegistration = second.addResolutionCallback(parked: .step(self))
        // Taken back at once if the zip was decided or cancelled meanwhile, as for a zip that is
        // not lazy.
        keep(firstRegistration, secondRegistration)
    }

    /// Keeps the registrations of the callbacks this step parked on the sources, to take back
    /// once the zip is decided; takes them back at once if it already is (or was cancelled).
    ///
    /// Under the child's stripe lock, which guards the links: a resolution publishes `resolved`
    /// before it takes the links (`takePaired(more:detachments:)`) under that lock, so either it
    /// takes these, or this sees the child resolved. A source that arrived already handed its
    /// callback over: its registration is not kept.
    @usableFromInline
    func keep(_ first: CallbackRegistration?, _ second: CallbackRegistration?) {
        guard first != nil || second != nil else { return }
        let kept = ParkingLot.withStripe(forKey: childKey) { stripe in
            stripe.withLock { () -> Bool in
                guard let child = arrivals.child, !child._isResolved else { return false }
                if arrivals.first == nil { firstRegistration = first }
                if arrivals.second == nil { secondRegistration = second }
                return true
            }
        }
        if !kept {
            if let first { _FutureCore.removeResolutionCallback(first) }
            if let second { _FutureCore.removeResolutionCallback(second) }
        }
    }

    override func pairedSource() -> _FutureCore? {
        second.future
    }

    override func takePaired(more: inout [Upstream], detachments: inout [Detachment]) {
        // A watched second is dropped here, under the lock: that frees no future.
        if let owned = second.take() { more.append(Upstream(holding: owned)) }
        if let registration = firstRegistration.take() { detachments.append(.callback(registration)) }
        if let registration = secondRegistration.take() { detachments.append(.callback(registration)) }
    }

    /// Runs `body` on the arrivals under the child's stripe lock.
    private func withArrivals(_ body: (inout Arrivals) -> Outcome) -> Outcome {
        ParkingLot.withStripe(forKey: childKey) { stripe in
            stripe.withLock { body(&arrivals) }
        }
    }

    @usableFromInline
    func resolveOwner(from source: _FutureCore) {
        let isFirst = firstSource == ObjectIdentifier(source)
        let outcome = withArrivals { state -> Outcome in
            guard state.child != nil else { return .none }
            // Its resolution handed this callback over: nothing to take back from it.
            if isFirst, state.first == nil {
                state.first = source
                firstRegistration = nil
            } else {
                state.second = source
                secondRegistration = nil
            }
            return Self.decide(&state)
        }
        run(outcome)
    }

    @usableFromInline
    func abandonStep(into list: inout [Any]) {
        // A lazy zip let go of before a reader connected it: only its sources to let go of.
        if let (first, second) = sourcesToConnect.take() {
            list.append(first)
            list.append(second)
            return
        }
        // Only a source's deinit or a callback taken back abandons a step. Taken back, the zip is
        // decided already, or resolved by `cancel()`, which takes the callbacks back: nothing can
        // decide it now, and the child, kept here, would keep this step (its links) for ever.
        // Freed, the first source can no longer be retained.
        // The links' own link to the first source, read under the lock that guards it, and
        // released after it (a release may free a future, whose deinit takes a stripe's lock).
        var firstAlive: _FutureCore?
        let outcome = withArrivals { state -> Outcome in
            guard let child = state.child else { return .none }
            firstAlive = linkedFirstSource
            if firstAlive == nil || child._isResolved { return Self.drop(&state) }
            state.secondLost = true
            return Self.decide(&state)
        }
        _ = firstAlive
        switch outcome {
        case .none: break
        case .dropped(let child, let arrived): list.append(child); list.append(arrived)
        case .decided: run(outcome)
        }
    }

    /// The decision the arrivals make, if any: the first source by position decides first.
    /// Everything it takes out of the state goes out with the outcome: nothing is released under
    /// the lock, where a source's deinit could take a stripe's lock again.
    private static func decide(_ state: inout Arrivals) -> Outcome {
        guard let first = state.first else { return .none }
        if first._hasSucceeded, state.second == nil {
            return state.secondLost ? drop(&state) : .none
        }
        let (child, arrived) = takeAll(&state)
        let decision: Decision
        if let second = arrived.1, first._hasSucceeded {
            decision = second._hasSucceeded ? .succeeded(first, second) : .secondFailed(second)
        } else {
            decision = .firstFailed(first)
        }
        return .decided(child, decision, arrived: arrived)
    }

    /// Forgets everything, for a zip that can never be decided; the child goes to the caller.
    private static func drop(_ state: inout Arrivals) -> Outcome {
        let (child, arrived) = takeAll(&state)
        return .dropped(child, arrived: arrived)
    }

    /// Empties the state of an undecided zip, moving out the child and the arrived sources.
    private static func takeAll(_ state: inout Arrivals) -> (_FutureCore, arrived: (_FutureCore?, _FutureCore?)) {
        let child = state.child.take().unsafelyUnwrapped
        let arrived = (state.first.take(), state.second.take())
        state.secondLost = false
        return (child, arrived)
    }

    /// Resolves the child if the outcome decided it; what it dropped is released on return,
    /// outside the lock.
    private func run(_ outcome: consuming Outcome) {
        switch consume outcome {
        case .none, .dropped: break
        case .decided(let child, let decision, _): body(child, decision)
        }
    }
}
