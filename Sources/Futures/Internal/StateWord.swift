/// The bit layout of a future's atomic state word.
///
/// ```
/// bits 0-1   phase: pending, running, completing, resolved
/// bit  2     a thread is (or was) parked waiting in the parking lot
/// bit  3     callbacks are registered in the parking lot
/// bit  4     cancelled: the future was resolved by `cancel()`
/// bit  5     pinned: the work must run on its own context; readers never claim it
/// bit  6     runs on read: a blocking reader that finds the work unstarted runs it at once
/// bit  7     reader may claim: a blocking reader may run the queued work itself, by the
///            `Scheduler`'s rule (background work that is not pinned)
/// bits 8-31  the creation file's number in `CreationSite`'s table (0: unknown)
/// bits 32-63 the creation line
/// ```
/// The creation site lives here so that it costs a future no field of its own.
/// Every transition is a compare-and-swap that keeps the flags and the site; the phase only
/// moves forward. `completing` gives the one thread that won the right to resolve exclusive
/// access to the result slot until it publishes `resolved` with a releasing store.
@usableFromInline
enum StateWord {
    @inlinable static var phaseMask: UInt64 { 0b11 }
    @inlinable static var pending: UInt64 { 0 }
    @inlinable static var running: UInt64 { 1 }
    @inlinable static var completing: UInt64 { 2 }
    @inlinable static var resolved: UInt64 { 3 }
    @inlinable static var waiters: UInt64 { 1 << 2 }
    @inlinable static var callbacks: UInt64 { 1 << 3 }
    @inlinable static var cancelled: UInt64 { 1 << 4 }
    @inlinable static var pinned: UInt64 { 1 << 5 }
    @inlinable static var runsOnRead: UInt64 { 1 << 6 }
    @inlinable static var readerMayClaim: UInt64 { 1 << 7 }

    @inlinable
    static func initial(fileID: StaticString, line: UInt) -> UInt64 {
        UInt64(truncatingIfNeeded: min(line, UInt(UInt32.max))) << 32 | CreationSite.number(of: fileID) << 8
    }

    @inlinable
    static func phase(_ word: UInt64) -> UInt64 { word & phaseMask }

    static func line(_ word: UInt64) -> UInt { UInt(word >> 32) }

    static func fileNumber(_ word: UInt64) -> UInt64 { (word >> 8) & 0xFF_FFFF }
}
