/// A pool's growable FIFO ring of jobs.
struct JobRing {
    /// A power of two: positions wrap with a mask.
    private var slots: [Job?] = Array(repeating: nil, count: Self.initialCapacity)
    private var head = 0
    private(set) var count = 0

    private static let initialCapacity = 256

    var isEmpty: Bool { count == 0 }

    mutating func push(_ job: consuming Job) {
        if count == slots.count { grow() }
        slots[(head &+ count) & (slots.count &- 1)] = consume job
        count &+= 1
    }

    /// The reference moves to the caller.
    mutating func pop() -> Job? {
        guard count > 0 else { return nil }
        let job = slots[head].take()
        head = (head &+ 1) & (slots.count &- 1)
        count &-= 1
        if count == 0 {
            head = 0
            // After a burst, give the memory back.
            if slots.count > Self.initialCapacity * 16 {
                slots = Array(repeating: nil, count: Self.initialCapacity)
            }
        }
        return job
    }

    func forEach(_ body: (Job) -> Void) {
        for offset in 0..<count {
            if let job = slots[(head &+ offset) & (slots.count &- 1)] { body(job) }
        }
    }

    /// A reader that claimed the work it just made takes its entry back: no worker finds it stale.
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
