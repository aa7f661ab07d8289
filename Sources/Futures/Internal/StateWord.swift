/// The bit layout of a future's atomic state word.
///
/// ```
/// bits 0-1   phase: pending, running, completing, resolved
/// bit  2     a thread is (or was) parked waiting in the parking lot
/// bit  3     callbacks are registered in the parking lot
/// bit  4     cancelled: the future was resolved by `cancel()`
/// bit  5     pinned: the work must run on its own context; readers never claim it
/// bits 32-63 the creation line, kept here so that it costs no extra field
/// ```
/// Every transition is a compare-and-swap that keeps the flags and the line; the phase only
/// moves forward. `completing` gives the one thread that won the right to resolve exclusive
/// access to the result slot until it publishes `resolved` with a releasing store.
@usableFromInline
enum StateWord {
    @usableFromInline static let phaseMask: UInt64 = 0b11
    @usableFromInline static let pending: UInt64 = 0
    @usableFromInline static let running: UInt64 = 1
    @usableFromInline static let completing: UInt64 = 2
    @usableFromInline static let resolved: UInt64 = 3
    static let waiters: UInt64 = 1 << 2
    static let callbacks: UInt64 = 1 << 3
    static let cancelled: UInt64 = 1 << 4
    static let pinned: UInt64 = 1 << 5

    static func initial(line: UInt) -> UInt64 {
        UInt64(truncatingIfNeeded: min(line, UInt(UInt32.max))) << 32
    }

    @inlinable
    static func phase(_ word: UInt64) -> UInt64 { word & phaseMask }

    static func line(_ word: UInt64) -> UInt { UInt(word >> 32) }
}
