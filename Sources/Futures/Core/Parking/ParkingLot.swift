import Foundation
import Synchronization

/// A striped table of locks and conditions shared by all futures, and what pending futures keep
/// beside their state word: registered callbacks, and a derived future's links.
///
/// A future has no lock of its own: reading a resolved future is one acquiring load, and only
/// threads that must wait, register a callback before resolution, or follow a derived future's
/// links come here. Each future maps to one stripe by its address; a stripe's lock guards that
/// stripe's callback table and the links of the derived futures that map to it, and is the lock
/// its condition waits with. Futures that share a stripe may wake each other spuriously, which the
/// waiting loops tolerate.
///
/// The no-lost-wakeup argument: a waiter sets the future's `waiters` bit (`StateWord.addWaiter()`)
/// while holding the stripe lock and waits without releasing it in between; the resolver
/// publishes `resolved` first and then, seeing the bit, takes the same lock to broadcast. So
/// either the waiter's transition sees `resolved` (and it does not wait) or the broadcast comes
/// after its wait began. Callbacks use the same argument with the `callbacks` bit.
enum ParkingLot {
    final class Stripe: @unchecked Sendable {
        // @unchecked: `callbacks`, and the `DerivedLinks` of the futures of this stripe, are read
        // and written only while the stripe's lock (`mutex`) is held.
        private let mutex = PoolLock(spinning: false)
        private let condition = StripeCondition()
        @exclusivity(unchecked) var callbacks = CallbackTable()
        /// The token of the last callback registered on this stripe's futures: tokens are unique
        /// within a stripe, and a future's stripe follows from its address, so a registration
        /// names its entry even after its future is freed and another takes its address.
        @exclusivity(unchecked) var lastToken: UInt64 = 0

        /// Runs `body` holding this stripe's lock.
        func withLock<R>(_ body: () throws -> R) rethrows -> R {
            mutex.lock()
            defer { mutex.unlock() }
            return try body()
        }

        /// Takes the stripe's lock.
        @inline(__always) func lock() { mutex.lock() }

        /// Releases the stripe's lock.
        @inline(__always) func unlock() { mutex.unlock() }

        /// Wakes every reader parked on the stripe; with the lock held.
        func broadcast() { condition.broadcast() }

        /// Parks this thread, with the lock held, until a broadcast (or spuriously), or for
        /// `duration` at most.
        func wait(for duration: Duration) {
            _ = mutex.wait(on: condition, until: .after(duration))
        }
    }

    /// The number of stripes is `1 << stripeBits`.
    static let stripeBits = 6
    static let stripeCount = 1 << stripeBits

    /// Every stripe, made once and never freed, so that a lookup reads it without reference
    /// counting (`withStripe(forKey:_:)`): a retain and a release per lookup were a measurable share
    /// of a chain's step.
    ///
    /// Reached through an address that is statically initialized (zero until the first lookup
    /// makes the table), not a lazily initialized `static let`: every access to one of those calls
    /// `swift_once`, which a `map` step on a pending source paid twice (its registration and its
    /// source's resolution).
    private static var stripeTable: UnsafeMutablePointer<Unmanaged<Stripe>> {
        if let table = UnsafeMutablePointer<Unmanaged<Stripe>>(
            bitPattern: stripeTableAddress.load(ordering: .acquiring))
        {
            return table
        }
        return makeStripeTable()
    }

    /// The address of the stripes, or zero until the first lookup.
    private static let stripeTableAddress = Atomic<UInt>(0)

    /// Makes the stripes and publishes them, unless another thread did first: then its table is
    /// the one, and this one is freed.
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

    /// The stripe of `object`: its address, spread by a Fibonacci hash (heap addresses share
    /// their low bits, so taking them directly would crowd a few stripes).
    static func stripe(for object: AnyObject) -> Stripe {
        stripe(forKey: ObjectIdentifier(object))
    }

    /// The stripe of the object whose identity is `key`.
    static func stripe(forKey key: ObjectIdentifier) -> Stripe {
        stripeTable[index(ofKey: key)].takeUnretainedValue()
    }

    /// Runs `body` with the stripe of the object whose identity is `key`, without retaining it.
    @inline(__always)
    static func withStripe<R>(forKey key: ObjectIdentifier, _ body: (Stripe) throws -> R) rethrows -> R {
        try stripeTable[index(ofKey: key)]._withUnsafeGuaranteedRef(body)
    }

    @inline(__always)
    private static func index(ofKey key: ObjectIdentifier) -> Int {
        let address = UInt64(UInt(bitPattern: key))
        return Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - stripeBits))
    }
}
