/// The callbacks parked on a stripe's futures, by future: open addressing with linear probing,
/// keyed by address. Not a `Dictionary`: SipHash twice per callback was a large share of a
/// callback's cost (gated: callback on a pending promise). Only under the stripe's lock.
struct CallbackTable {
    /// One place of the table: `key` is 0 while it is empty (no future has address 0).
    private struct Slot {
        var key: UInt
        var value: ParkedCallbacks
    }

    private var slots: [Slot] = []
    /// How many futures have callbacks here.
    private(set) var count = 0

    /// The table's places, a power of two, at least twice `count` (0 before the first insert).
    private var capacity: Int { slots.count }

    /// The callbacks of the future whose identity is `key`, if it has any here.
    subscript(key: ObjectIdentifier) -> ParkedCallbacks? {
        guard let index = index(of: UInt(bitPattern: key)) else { return nil }
        return slots[index].value
    }

    /// Adds `entry` after the callbacks of the future whose identity is `key`, sweeping spent
    /// steps into `swept` (`ParkedCallbacks.append(_:sweepingInto:)`).
    mutating func append(
        _ entry: consuming ParkedEntry, forKey key: ObjectIdentifier, sweepingInto swept: inout [ParkedEntry]
    ) {
        let address = UInt(bitPattern: key)
        if let index = index(of: address) {
            slots[index].value.append(consume entry, sweepingInto: &swept)
            return
        }
        if (count + 1) * 2 > capacity { grow() }
        let index = freeIndex(for: address)
        slots[index] = Slot(key: address, value: .one(consume entry))
        count += 1
    }

    /// Replaces the callbacks of the future whose identity is `key` with `value`, or removes them
    /// if `value` is `nil`. The future must have callbacks here.
    mutating func replace(forKey key: ObjectIdentifier, with value: ParkedCallbacks?) {
        guard let value else {
            _ = removeValue(forKey: key)
            return
        }
        guard let index = index(of: UInt(bitPattern: key)) else { return }
        slots[index].value = value
    }

    /// Removes and returns the callbacks of the future whose identity is `key`.
    mutating func removeValue(forKey key: ObjectIdentifier) -> ParkedCallbacks? {
        guard let index = index(of: UInt(bitPattern: key)) else { return nil }
        var removed = Slot(key: 0, value: .many([]))
        swap(&removed, &slots[index])
        count -= 1
        closeGap(at: index)
        return removed.value
    }

    /// Where `address` is, or `nil`.
    private func index(of address: UInt) -> Int? {
        guard count > 0 else { return nil }
        let mask = capacity - 1
        var index = Self.home(of: address, mask: mask)
        while true {
            let key = slots[index].key
            if key == address { return index }
            if key == 0 { return nil }
            index = (index + 1) & mask
        }
    }

    /// The first empty place from `address`'s home on. The table must have one.
    private func freeIndex(for address: UInt) -> Int {
        let mask = capacity - 1
        var index = Self.home(of: address, mask: mask)
        while slots[index].key != 0 { index = (index + 1) & mask }
        return index
    }

    /// Where the search for `address` starts: a different multiplier from the stripe's hash
    /// (`ParkingLot`), so one stripe's futures still spread over its table.
    private static func home(of address: UInt, mask: Int) -> Int {
        let spread = UInt64(address) &* 0xD6E8_FEB8_6659_FD93
        return Int(truncatingIfNeeded: spread ^ (spread >> 32)) & mask
    }

    /// Doubles the places (16 at first) and puts every entry back.
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: Slot(key: 0, value: .many([])), count: Swift.max(16, capacity * 2))
        for slot in old where slot.key != 0 {
            slots[freeIndex(for: slot.key)] = slot
        }
    }

    /// After `gap` was emptied, moves back the entries after it that a search would no longer
    /// reach (backward-shift deletion), so that no search stops early at the gap.
    private mutating func closeGap(at gap: Int) {
        let mask = capacity - 1
        var gap = gap
        var index = (gap + 1) & mask
        while slots[index].key != 0 {
            let home = Self.home(of: slots[index].key, mask: mask)
            // The entry may move to the gap if its home is not cyclically in (gap, index].
            let distanceToEntry = (index - home) & mask
            let distanceToGap = (gap - home) & mask
            if distanceToGap < distanceToEntry {
                slots.swapAt(gap, index)
                gap = index
            }
            index = (index + 1) & mask
        }
    }
}
