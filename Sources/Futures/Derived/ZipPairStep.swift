/// A `zip` of two's links, which are also the callback parked on both sources
/// (`ParkedCallback.step`), with what has arrived: one object (gated: zip of two pending
/// promises). It keeps its second source and registrations itself, so it needs no extras.
///
/// The step holds the child until decided (a zip with only an `onSuccess` must still resolve),
/// and the child holds the step: a cycle, broken when the zip is decided (`resolveOwner`), when
/// the first source is freed pending or the zip is cancelled (`abandonStep`), or when the second
/// is freed pending after the first succeeded (or vice versa). Freed while the first is pending,
/// the second leaves the decision to the first's failure.
///
/// Of a lazy source the step is parked only on first demand (`connectOnDemand`): parked at once,
/// child and lazy sources would keep each other for ever if never read.
///
/// Arrivals are guarded by the child's stripe lock, which guards its links (this object): sources
/// resolve on any threads, and one source's deinit may abandon the step while the other's
/// resolution runs it. (A `Mutex` field: ThreadSanitizer does not see its wait on Linux.)
@usableFromInline
final class _ZipPairStep: DerivedLinks, DerivedStep, @unchecked Sendable {
    // @unchecked: `arrivals` and the registrations are touched under the stripe lock of
    // `childKey`, which `attach(_:)` wrote before parking (the parking's lock publishes it);
    // `body` and `firstSource` never change; `DerivedLinks` fields are guarded as there.

    /// The first source's failure, the second's after the first succeeded, or both values.
    @usableFromInline
    enum Decision {
        case firstFailed(_FutureCore)
        case secondFailed(_FutureCore)
        case succeeded(_FutureCore, _FutureCore)
    }

    /// Resolves the child: a capture-free closure made where `zip` is specialized.
    @usableFromInline typealias Body = @Sendable (_FutureCore, Decision) -> Void

    private struct Arrivals {
        var child: _FutureCore?
        var first: _FutureCore?
        var second: _FutureCore?
        /// The second was freed pending: only the first's failure can decide.
        var secondLost = false
    }

    private enum Outcome {
        case none
        case decided(_FutureCore, Decision, arrived: (_FutureCore?, _FutureCore?))
        /// Never decidable: let go of the child and what arrived.
        case dropped(_FutureCore, arrived: (_FutureCore?, _FutureCore?))
    }

    @exclusivity(unchecked) private var arrivals = Arrivals()
    /// The child's identity, for its stripe lock; set before the step is parked.
    private var childKey = ObjectIdentifier(_ZipPairStep.self)
    /// Tells the first source from the second (`zip(f, f)` gives both the same); both were alive
    /// when the step was made, and only they call it, so no other future has this identity then.
    private let firstSource: ObjectIdentifier
    private let body: Body
    /// Kept here, not in the extras (see `keepsPair`), so a pending zip needs no arrays. Guarded as
    /// the links' `first` is.
    private var second: Upstream
    /// The callbacks parked on the sources, taken back once decided; each is forgotten when its
    /// source arrives (already handed over). Under the child's stripe lock.
    private var firstRegistration: CallbackRegistration?
    private var secondRegistration: CallbackRegistration?

    /// Of a lazy zip, both sources until the first demand connects the step, a `cancel()` lets
    /// go of them, or the step is freed. Held strongly: the links only watch a non-lazy source,
    /// and an unheld resolved one (`Future(value:)` in the call) would be gone by the read. Written
    /// before the child exists, then only by the thread that clears `connectsOnDemand` under lock.
    private var sourcesToConnect: (_FutureCore, _FutureCore)?

    @usableFromInline
    init(first: _FutureCore, second: _FutureCore, body: @escaping Body) {
        firstSource = ObjectIdentifier(first)
        self.body = body
        self.second = Upstream(second)
        super.init(firstOfPair: first)
    }

    override var keepsPair: Bool { true }

    @usableFromInline
    func attach(_ child: _FutureCore) {
        arrivals.child = child
        childKey = ObjectIdentifier(child)
    }

    /// Makes this a lazy zip's links: nothing is parked until a reader demands the child.
    @usableFromInline
    func connectOnDemandLater(first: _FutureCore, second: _FutureCore) {
        sourcesToConnect = (first, second)
        connectsOnDemand = true
    }

    /// Parks the step on both sources for `owner` on first demand.
    @usableFromInline
    func connectOnDemand(owner: _FutureCore, first: _FutureCore?) {
        guard let (first, second) = sourcesToConnect.take() else { return }
        attach(owner)
        let firstRegistration = first.addResolutionCallback(parked: .step(self))
        let secondRegistration = second.addResolutionCallback(parked: .step(self))
        // Taken back at once if decided or cancelled meanwhile.
        keep(firstRegistration, secondRegistration)
    }

    /// Keeps the parked registrations to take back once decided, or takes them back now. Under the
    /// child's stripe lock: a resolution publishes `resolved` before taking the links under it, so
    /// either it takes these or this sees it. A source that arrived already is not kept.
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

    override func pairedSource() -> _FutureCore? { second.future }

    override func takePaired(more: inout [Upstream], detachments: inout [Detachment]) {
        // A watched second is dropped under the lock: that frees no future.
        if let owned = second.take() { more.append(Upstream(holding: owned)) }
        if let registration = firstRegistration.take() { detachments.append(.callback(registration)) }
        if let registration = secondRegistration.take() { detachments.append(.callback(registration)) }
    }

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
            // Its resolution handed this callback over: nothing to take back.
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
        // A lazy zip never connected: only its sources to let go of.
        if let (first, second) = sourcesToConnect.take() {
            list.append(first)
            list.append(second)
            return
        }
        // Only a source's deinit or a taken-back callback gets here. Taken back means decided or
        // cancelled, and the child kept here would keep this step for ever; a freed first source
        // can decide nothing. The first link is read under its lock and released after it.
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

    /// The decision the arrivals make, if any (the first by position decides first). What it
    /// takes out goes out with the outcome: nothing is released under the lock.
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

    /// Forgets everything for a never-decidable zip; the child goes to the caller.
    private static func drop(_ state: inout Arrivals) -> Outcome {
        let (child, arrived) = takeAll(&state)
        return .dropped(child, arrived: arrived)
    }

    private static func takeAll(_ state: inout Arrivals) -> (_FutureCore, arrived: (_FutureCore?, _FutureCore?)) {
        let child = state.child.take().unsafelyUnwrapped
        let arrived = (state.first.take(), state.second.take())
        state.secondLost = false
        return (child, arrived)
    }

    /// Resolves the child if decided; what was dropped is released on return, outside the lock.
    private func run(_ outcome: consuming Outcome) {
        switch consume outcome {
        case .none, .dropped: break
        case .decided(let child, let decision, _): body(child, decision)
        }
    }
}
