/// What a bounded `Future.all` knows, under its lock. No generic type in it, and none in the run:
/// the steps that need the client's types are closures made by the inlinable `Future.all`.
struct BoundedAllState: Sendable {
    /// The index of the next item to make a future for.
    var next = 0
    /// The slots of the futures made and not yet resolved, as three arrays by slot number: the
    /// item's index (-1 while the slot is free), the future (the same link as among the new
    /// future's sources), and the callback the run parked on it (`nil` until stored, or when it
    /// ran at once). Made as needed, up to `slotLimit`, then reused: a `maxConcurrent` of
    /// `Int.max` makes no more slots than futures in flight at once.
    ///
    /// Plain values changed in place, not an object per slot: reading a slot object out of an
    /// array retained and released it, an atomic operation on a line that both threads finishing
    /// jobs write, twice per job.
    ///
    /// A future's link is watched (`WatchedSource`) unless the future is lazy or background, as a
    /// derived future's link to its source is: the future's callback holds the run, so a strong
    /// link made a cycle (future → callback → run → future) that kept a future whose promise was
    /// dropped, the run and the new future for ever, and that LeakSanitizer saw as about a
    /// thousand weak-reference side tables per run of the racing tests.
    private var slotItems: [Int] = []
    private var slotSources: [Upstream] = []
    private var slotRegistrations: [CallbackRegistration?] = []
    let slotLimit: Int
    /// The free slots, taken from the end.
    var freeSlots: [Int] = []
    /// The future of the first item, made up front, until it is put in flight.
    var first: _FutureCore?
    /// Makes the future of the item at an index, until no more futures may be made: then it is
    /// let go, with everything it captured. Only the thread that pumps, or `finish` when none
    /// does, lets go of it: the pumping thread calls it unretained (`BoundedAllClaim.maker`).
    var maker: BoundedAllMaker?
    /// The futures that succeeded, by item (they hold only their values).
    var succeeded: [_FutureCore?]
    /// How many items from the first have succeeded.
    var prefix = 0
    /// The first failure by position seen so far, and where.
    var failureIndex = Int.max
    var failure: (any Error)?
    var failureCancelled = false
    /// Whether no new future may be made: after a failure, or once the run is over.
    var stopped = false
    /// Whether the run is over and has let go of its futures in flight (`finish`).
    var isOver = false
    /// Whether a thread is making futures now (the others leave it to that one).
    var pumping = false
    /// Whether the outcome has been handed out.
    var decided = false
    /// Whether the new future was cancelled by its owner (its own `cancel()`), not failed by an
    /// item's cancellation: only then are the futures in flight, and one being made, cancelled.
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

    /// Whether a future may be put in flight now: a slot is free, or another may be made.
    var hasRoom: Bool { !freeSlots.isEmpty || slotItems.count < slotLimit }

    /// The next item to make a future for and the slot it takes, claimed by the thread that
    /// pumps (`pumping`), with what makes its future: the first item's future itself, or the
    /// maker. `nil` when none may be made now: pumping ends, and if no more will ever be made, the
    /// maker and the unused first future move to `released`, to be let go of outside the lock.
    ///
    /// The slot is reserved for the item at once, before the future exists: the future may
    /// resolve, and its callback free the slot, before its thread stores it there.
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
            claim.maker = Unmanaged.passUnretained(maker)
        }
        return claim
    }

    /// Moves the maker and the unused first future to `released`, when no more futures will be
    /// made.
    mutating func letGo(into released: inout BoundedAllClaim.Released) {
        swap(&released.maker, &maker)
        swap(&released.first, &first)
    }

    /// Stores the future made for a claimed item, and the registration of the run's callback on
    /// it, in the slot reserved for it; `false` if the slot is no longer the item's (its callback
    /// freed it) or the run is over.
    mutating func store(_ future: _FutureCore, registration: CallbackRegistration?, at index: Int, inSlot slot: Int)
        -> Bool
    {
        guard slotItems[slot] == index, !isOver else { return false }
        slotSources[slot] = Upstream(future)
        slotRegistrations[slot] = registration
        return true
    }

    /// Frees the slot of an item whose future resolved: returns the item's index, and the future
    /// the slot held strongly, if any (a watched link is dropped here: that frees no future), to
    /// release outside the lock; `nil` if the run is over and took its futures out of their
    /// slots (`takeInFlight`). Its registration is spent: the callback ran.
    ///
    /// The slot says the item: it is reserved for the item before its future exists, and only
    /// this callback frees it while the run goes on, so it is the item's until then, stored or not.
    mutating func free(slot: Int) -> (index: Int, future: _FutureCore?)? {
        let index = slotItems[slot]
        guard index >= 0 else { return nil }
        slotItems[slot] = -1
        freeSlots.append(slot)
        slotRegistrations[slot] = nil
        // Moved out (`take()` leaves the link empty), not copied out and then released by an
        // overwrite: a retain and a release per job.
        return (index, slotSources[slot].take())
    }

    /// Takes every future in flight out of its slot, with its registration, when the run is over.
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

/// The maker of a bounded `Future.all`'s futures, in an object of its own, so that the thread
/// that pumps can call it without retaining it (a closure's context, copied out of the state,
/// was retained and released per job, on a line the other worker's copy had just written).
final class BoundedAllMaker: Sendable {
    let make: @Sendable (Int) -> _FutureCore

    init(_ make: @escaping @Sendable (Int) -> _FutureCore) {
        self.make = make
    }
}

/// An item whose future the pumping thread makes next, and the slot reserved for it.
struct BoundedAllClaim {
    let index: Int
    let slot: Int
    /// The first item's future, made up front, for item 0.
    var first: _FutureCore?
    /// The maker, for the other items: unretained, since the state lets go of it only on the
    /// pumping thread (`BoundedAllState.claimNext`), or in `finish` when no thread pumps.
    var maker: Unmanaged<BoundedAllMaker>?

    init(index: Int, slot: Int) {
        self.index = index
        self.slot = slot
    }

    /// What a run lets go of once it makes no more futures: released outside its lock, since what
    /// `makeFuture` captured may run deinits.
    struct Released {
        var maker: BoundedAllMaker?
        var first: _FutureCore?
    }
}
