import Synchronization

/// Where futures with links are made: each distinct `#fileID` gets a small number, kept in the
/// state word beside the line, so that knowing the creation site costs a future no field of its
/// own. (A future without links keeps the file's address in its links instead, `FutureLinks.site`,
/// and never comes here.)
///
/// `#fileID` is a pointer-backed, NUL-terminated static string, so its pointer alone recovers the
/// text when a message needs it. The pointers live in a fixed open-addressed table that only
/// grows: a creation hashes its pointer and finds it in the first slot it looks at, almost always
/// (a load and a compare); the first future made in a file claims a slot with a compare-and-swap.
/// A program with more than `capacity` files that make futures gets "<unknown file>" for the rest.
@usableFromInline
enum CreationSite {
    /// Slots in the table; a power of two.
    static let capacity = 4096
    /// The table's address, or zero until the first future is made. Statically initialized, so
    /// a creation does not pay a lazy-initialization check.
    private static let tableAddress = Atomic<UInt>(0)

    /// The number of `fileID` (1 or more), or 0 if it has none (not pointer-backed, or the table
    /// is full).
    @usableFromInline
    static func number(of fileID: StaticString) -> UInt64 {
        guard fileID.hasPointerRepresentation else { return 0 }
        let address = UInt(bitPattern: fileID.utf8Start)
        let table = table
        // Almost always, the first slot looked at holds the file's pointer: one load and one
        // compare, before the search and its loop.
        let home = homeSlot(of: address, capacity: capacity)
        if table[home].load(ordering: .acquiring) == address { return UInt64(home &+ 1) }
        return number(of: address, in: table, capacity: capacity)
    }

    /// The slot where the search for `address` starts, in a table of `capacity` slots (a power of
    /// two). Fibonacci hashing: the product's high bits, which every bit of the address moves. (A
    /// shift binds tighter than `&*` in Swift: the parentheses keep it from shifting the constant,
    /// which multiplied by a 24-bit number and kept the product's low bits.)
    static func homeSlot(of address: UInt, capacity: Int) -> Int {
        Int(truncatingIfNeeded: ((address >> 3) &* 0x9E37_79B9_7F4A_7C15) >> 40) & (capacity &- 1)
    }

    /// The number of `address` in `table` (its slot plus one), claiming a free slot if it has
    /// none; 0 if the table is full. `capacity` is a power of two.
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
