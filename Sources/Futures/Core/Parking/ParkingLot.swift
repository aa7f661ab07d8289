import Foundation
import Synchronization

/// A striped table of locks and conditions shared by all futures, with what pending futures keep
/// beside their state word: callbacks and derived futures' links. A future has no lock: reading a
/// resolved one is one acquiring load. A future maps to a stripe by address; the stripe's lock
/// guards its callback table and the links of its derived futures, and is its condition's lock.
/// Futures sharing a stripe may wake each other spuriously; the waiting loops tolerate it.
///
/// No lost wake-up: a waiter sets the `waiters` bit under the stripe lock and waits without
/// releasing it; the resolver publishes `resolved`, then, seeing the bit, takes the lock to
/// broadcast. Callbacks use the same argument with the `callbacks` bit.
enum ParkingLot {
    final class Stripe: @unchecked Sendable {
        // @unchecked: `callbacks`, and this stripe's futures' `DerivedLinks`, are touched only
        // under `mutex`.
        private let mutex = PoolLock(spinning: false)
        private let condition = StripeCondition()
        @exclusivity(unchecked) var callbacks = CallbackTable()
        /// The last token registered here: unique per stripe, so a registration names its entry
        /// even after its future is freed and another takes its address.
        var lastToken: UInt64 = 0

        func withLock<R>(_ body: () throws -> R) rethrows -> R {
            mutex.lock()
            defer { mutex.unlock() }
            return try body()
        }

        func lock() { mutex.lock() }

        func unlock() { mutex.unlock() }

        /// Wakes every reader parked on the stripe; lock held.
        func broadcast() { condition.broadcast() }

        /// Parks with the lock held until a broadcast (or spuriously), at most `duration`.
        func wait(for duration: Duration) { _ = mutex.wait(on: condition, until: .after(duration)) }
    }

    /// The number of stripes is `1 << stripeBits`.
    static let stripeBits = 6
    static let stripeCount = 1 << stripeBits

    /// Every stripe, made once and never freed, so lookups skip reference counting; behind a
    /// statically initialized address, not a `static let`, whose every access calls `swift_once`
    /// (gated: map step).
    private static var stripeTable: UnsafeMutablePointer<Unmanaged<Stripe>> {
        if let table = UnsafeMutablePointer<Unmanaged<Stripe>>(
            bitPattern: stripeTableAddress.load(ordering: .acquiring))
        {
            return table
        }
        return makeStripeTable()
    }

    private static let stripeTableAddress = Atomic<UInt>(0)

    /// Makes and publishes the stripes, unless another thread won: then this table is freed.
    @inline(never)
    private static func makeStripeTable() -> UnsafeMutablePointer<Unmanaged<Stripe>> {
        let table = UnsafeMutablePointer<Unmanaged<Stripe>>.allocate(capacity: stripeCount)
        for index in 0..<stripeCount { (table + index).initialize(to: .passRetained(Stripe())) }
        let (exchanged, winner) = stripeTableAddress.compareExchange(
            expected: 0, desired: UInt(bitPattern: table), ordering: .acquiringAndReleasing)
        if exchanged { return table }
        for index in 0..<stripeCount { table[index].release() }
        table.deallocate()
        return UnsafeMutablePointer(bitPattern: winner).unsafelyUnwrapped
    }

    /// How many futures have callbacks in the stripes' tables now. For tests.
    static var parkedCallbackKeyCount: Int {
        (0..<stripeCount).reduce(0) { total, index in
            let stripe = stripeTable[index].takeUnretainedValue()
            return total + stripe.withLock { stripe.callbacks.count }
        }
    }

    /// The stripe of `object`, by a Fibonacci hash of its address (heap addresses share low bits).
    static func stripe(for object: AnyObject) -> Stripe { stripe(forKey: ObjectIdentifier(object)) }

    static func stripe(forKey key: ObjectIdentifier) -> Stripe { stripeTable[index(ofKey: key)].takeUnretainedValue() }

    /// Runs `body` with `key`'s stripe, unretained.
    static func withStripe<R>(forKey key: ObjectIdentifier, _ body: (Stripe) throws -> R) rethrows -> R {
        try stripeTable[index(ofKey: key)]._withUnsafeGuaranteedRef(body)
    }

    private static func index(ofKey key: ObjectIdentifier) -> Int {
        let address = UInt64(UInt(bitPattern: key))
        return Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - stripeBits))
    }
}
