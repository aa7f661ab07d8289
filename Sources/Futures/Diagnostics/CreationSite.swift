import Synchronization

/// Numbers each distinct `#fileID` of a future with links, kept in the state word beside the line
/// (a future without links keeps the file's address in `FutureLinks.site`). The pointer alone
/// recovers the NUL-terminated text. A fixed open-addressed table that only grows: a creation
/// almost always finds its pointer in the first slot (a load and a compare); the file's first
/// future claims a slot by CAS. Past `capacity` files, "<unknown file>".
@usableFromInline
enum CreationSite {
    /// A power of two.
    static let capacity = 4096
    /// Zero until the first future; statically initialized, so no lazy-initialization check.
    private static let tableAddress = Atomic<UInt>(0)

    /// 1 or more, or 0 (not pointer-backed, or the table is full).
    @usableFromInline
    static func number(of fileID: StaticString) -> UInt64 {
        guard fileID.hasPointerRepresentation else { return 0 }
        let address = UInt(bitPattern: fileID.utf8Start)
        let table = table
        let home = homeSlot(of: address, capacity: capacity)
        if table[home].load(ordering: .acquiring) == address { return UInt64(home &+ 1) }
        return number(of: address, in: table, capacity: capacity)
    }

    /// Fibonacci hashing: the product's high bits, which every address bit moves. (The parentheses
    /// matter: a shift binds tighter than `&*` in Swift.)
    static func homeSlot(of address: UInt, capacity: Int) -> Int {
        Int(truncatingIfNeeded: ((address >> 3) &* 0x9E37_79B9_7F4A_7C15) >> 40) & (capacity &- 1)
    }

    /// Its slot plus one, claiming a free slot; 0 if the table is full.
    static func number(of address: UInt, in table: UnsafeMutablePointer<Atomic<UInt>>, capacity: Int) -> UInt64 {
        let mask = capacity &- 1
        var slot = homeSlot(of: address, capacity: capacity)
        for _ in 0..<capacity {
            var current = table[slot].load(ordering: .acquiring)
            if current == 0 {
                current =
                    table[slot].compareExchange(
                        expected: 0, desired: address, ordering: .acquiringAndReleasing
                    ).original
                if current == 0 { return UInt64(slot &+ 1) }
            }
            if current == address { return UInt64(slot &+ 1) }
            slot = (slot &+ 1) & mask
        }
        return 0
    }

    /// "Sources/App/Loader.swift:42", or "<unknown file>:42".
    static func describe(number: UInt64, line: UInt) -> String {
        guard number > 0, number <= capacity else { return describe(file: nil, line: line) }
        let address = table[Int(number - 1)].load(ordering: .acquiring)
        return describe(file: UnsafePointer<CChar>(bitPattern: address), line: line)
    }

    /// "Sources/App/Loader.swift:42" for the NUL-terminated name at `file`, or "<unknown file>:42".
    static func describe(file: UnsafePointer<CChar>?, line: UInt) -> String {
        guard let file else { return "<unknown file>:\(line)" }
        return "\(String(cString: file)):\(line)"
    }

    private static var table: UnsafeMutablePointer<Atomic<UInt>> {
        if let table = UnsafeMutablePointer<Atomic<UInt>>(bitPattern: tableAddress.load(ordering: .acquiring)) {
            return table
        }
        return makeTable()
    }

    private static func makeTable() -> UnsafeMutablePointer<Atomic<UInt>> {
        let table = UnsafeMutablePointer<Atomic<UInt>>.allocate(capacity: capacity)
        for slot in 0..<capacity { (table + slot).initialize(to: Atomic(0)) }
        let (exchanged, winner) = tableAddress.compareExchange(
            expected: 0, desired: UInt(bitPattern: table), ordering: .acquiringAndReleasing)
        if exchanged { return table }
        table.deinitialize(count: capacity)  // another thread made the table first
        table.deallocate()
        return UnsafeMutablePointer(bitPattern: winner).unsafelyUnwrapped
    }
}
