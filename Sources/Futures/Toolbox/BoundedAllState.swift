/// A bounded `Future.all`'s state, under its lock. Not generic: the typed steps are closures
/// made by the inlinable `Future.all`.
struct BoundedAllState: Sendable {
    var next = 0
    /// Per slot: the item's index (-1 when free), its future's link, and the run's callback
    /// registration (`nil` until stored or if it ran at once). Made up to `slotLimit`, then reused.
    /// Plain arrays changed in place: slot objects were retained and released per read, on a line
    /// both finishing threads write. A link is watched unless lazy or background, as a derived
    /// future's is: the callback holds the run, so a strong link made a cycle that kept a future
    /// with a dropped promise, the run and the new future for ever.
    private var slotItems: [Int] = []
    private var slotSources: [Upstream] = []
    private var slotRegistrations: [CallbackRegistration?] = []
    let slotLimit: Int
    /// The free slots, taken from the end.
    var freeSlots: [Int] = []
    /// The first item's future, made up front, until put in flight.
    var first: _FutureCore?
    /// Makes the item at an index's future, until no more may be made; then let go. Only the
    /// pumping thread, or `finish` when none pumps, lets go: the pumper calls it unretained.
    var maker: BoundedAllMaker?
    /// Succeeded futures by item (they hold only their values).
    var succeeded: [_FutureCore?]
    /// How many items from the first have succeeded.
    var prefix = 0
    /// The first failure by position so far, and where.
    var failureIndex = Int.max
    var failure: (any Error)?
    var failureCancelled = false
    /// No new future may be made: after a failure, or once over.
    var stopped = false
    /// The run is over and let go of its futures in flight (`finish`).
    var isOver = false
    /// A thread is making futures now; the others leave it to that one.
    var pumping = false
    /// The outcome has been handed out.
    var decided = false
    /// The owner's own `cancel()`, not an item's cancellation: only then are the futures in
    /// flight (and one being made) cancelled.
    var ownerCancelled = false

    enum Decision {
        case undecided
        case succeeded
        case failed
    }

    init(count: Int, slots: Int, first: _FutureCore, maker: BoundedAllMaker) {
        succeeded = Array(repeating: nil, count: count)
        slotLimit = slots
        self.first = first
        self.maker = maker
    }

    var hasRoom: Bool { !freeSlots.isEmpty || slotItems.count < slotLimit }

    /// Claims the next item and its slot for the pumping thread, with the first future or the
    /// maker; `nil` ends pumping, and when nothing more will be made, moves maker and unused first
    /// future to `released` (let go outside the lock). The slot is reserved before the future
    /// exists: it may resolve and its callback free the slot before it is stored.
    mutating func claimNext(count: Int, released: inout BoundedAllClaim.Released) -> BoundedAllClaim? {
        guard !stopped, hasRoom, next < count else {
            pumping = false
            if stopped || next == count { letGo(into: &released) }
            return nil
        }
        let index = next
        next += 1
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slotItems[slot] = index
        } else {
            slot = slotItems.count
            slotItems.append(index)
            slotSources.append(Upstream())
            slotRegistrations.append(nil)
        }
        var claim = BoundedAllClaim(index: index, slot: slot)
        if index == 0 {
            swap(&claim.first, &first)
        } else if let maker {
            claim.maker = maker
        }
        return claim
    }

    /// Moves the maker and unused first future to `released`.
    mutating func letGo(into released: inout BoundedAllClaim.Released) {
        swap(&released.maker, &maker)
        swap(&released.first, &first)
    }

    /// Stores a claimed item's future and registration in its slot; `false` if its callback
    /// freed the slot already or the run is over.
    mutating func store(_ future: _FutureCore, registration: CallbackRegistration?, at index: Int, inSlot slot: Int)
        -> Bool
    {
        guard slotItems[slot] == index, !isOver else { return false }
        slotSources[slot] = Upstream(future)
        slotRegistrations[slot] = registration
        return true
    }

    /// Frees a resolved item's slot: the index and the strongly held future, to release outside
    /// the lock (a watched link is dropped here: that frees nothing); `nil` if the run is over and
    /// took its futures (`takeInFlight`). The slot is the item's from its claim until this
    /// callback frees it, stored or not. The registration is spent.
    mutating func free(slot: Int) -> (index: Int, future: _FutureCore?)? {
        let index = slotItems[slot]
        guard index >= 0 else { return nil }
        slotItems[slot] = -1
        freeSlots.append(slot)
        slotRegistrations[slot] = nil
        // Moved out, not copied then overwritten: a retain and a release less per job.
        return (index, slotSources[slot].take())
    }

    /// Takes every future in flight, with its registration, when the run is over.
    mutating func takeInFlight() -> [(future: _FutureCore?, registration: CallbackRegistration?)] {
        var taken: [(future: _FutureCore?, registration: CallbackRegistration?)] = []
        for slot in slotItems.indices where slotItems[slot] >= 0 {
            let future = slotSources[slot].future
            _ = slotSources[slot].take()
            taken.append((future, slotRegistrations[slot].take()))
            slotItems[slot] = -1
            freeSlots.append(slot)
        }
        return taken
    }
}

/// The maker, in an object of its own: a claim holds it with one retain, not the closure's
/// context.
final class BoundedAllMaker: Sendable {
    let make: @Sendable (Int) -> _FutureCore

    init(_ make: @escaping @Sendable (Int) -> _FutureCore) { self.make = make }
}

/// The item the pumping thread makes next, and its reserved slot.
struct BoundedAllClaim {
    let index: Int
    let slot: Int
    /// The first item's future, for item 0.
    var first: _FutureCore?
    /// The maker, for the other items.
    var maker: BoundedAllMaker?

    init(index: Int, slot: Int) {
        self.index = index
        self.slot = slot
    }

    /// What a run lets go of once it makes no more futures, outside its lock.
    struct Released {
        var maker: BoundedAllMaker?
        var first: _FutureCore?
    }
}
