/// A growable first-in first-out ring buffer of jobs, for a thread pool's queue.
struct JobRing {
    /// Capacity is a power of two, so that positions wrap with a mask.
    private var slots: [Job?] = Array(repeating: nil, count: Self.initialCapacity)
    private var head = 0
    private(set) var count = 0

    /// The capacity the ring starts with and returns to once empty.
    private static let initialCapacity = 256

    var isEmpty: Bool { count == 0 }

    mutating func push(_ job: consuming Job) {
        if count == slots.count { grow() }
        slots[(head &+ count) & (slots.count &- 1)] = consume job
        count &+= 1
    }

    /// Takes the oldest job out. The reference moves to the caller, which releases it.
    mutating func pop() -> Job? {
        guard count > 0 else { return nil }
        let job = slots[head].take()
        head = (head &+ 1) & (slots.count &- 1)
        count &-= 1
        if count == 0 {
            head = 0
            // After a burst, give the memory back: every slot is empty, so nothing is released
            // but the buffer.
            if slots.count > Self.initialCapacity * 16 {
                slots = Array(repeating: nil, count: Self.initialCapacity)
            }
        }
        return job
    }

    /// Calls `body` with each job, oldest first, leaving them in the ring.
    func forEach(_ body: (Job) -> Void) {
        for offset in 0..<count {
            if let job = slots[(head &+ offset) & (slots.count &- 1)] { body(job) }
        }
    }

    /// Takes out the newest entry if it is `future`'s: what a reader that claimed the work it has
    /// just made takes back, so that no worker has to find it stale.
    mutating func removeNewest(ifFutureIs future: _FutureCore) -> Job? {
        guard count > 0 else { return nil }
        let newest = (head &+ count &- 1) & (slots.count &- 1)
        guard case .future(let queued, _)? = slots[newest], queued === future else { return nil }
        count &-= 1
        return slots[newest].take()
    }

    private mutating func grow() {
        var larger: [Job?] = []
        larger.reserveCapacity(slots.count * 2)
        for offset in 0..<count {
            larger.append(slots[(head &+ offset) & (slots.count &- 1)].take())
        }
        larger.append(contentsOf: repeatElement(nil, count: slots.count * 2 - count))
        slots = larger
        head = 0
    }
}
