import Foundation

/// A callback waiting in the parking lot: it receives the resolved future it was registered on.
typealias ParkedCallback = @Sendable (AnyObject) -> Void

/// A striped table of `NSCondition`s shared by all futures, and the callbacks of pending futures.
///
/// A future has no lock of its own: reading a resolved future is one acquiring load, and only
/// threads that must wait (or register a callback before resolution) come here. Each future
/// maps to one stripe by its address; a stripe's lock guards that stripe's callback table and
/// is the lock its condition waits with. Futures that share a stripe may wake each other
/// spuriously, which the waiting loops tolerate.
///
/// The no-lost-wakeup argument: a waiter sets the future's `waiters` bit by compare-and-swap
/// while holding the stripe lock and waits without releasing it in between; the resolver
/// publishes `resolved` first and then, seeing the bit, takes the same lock to broadcast. So
/// either the waiter's swap fails (it sees `resolved`) or the broadcast comes after its wait
/// began. Callbacks use the same argument with the `callbacks` bit.
final class ParkingLot: @unchecked Sendable {
    // @unchecked: each stripe's `callbacks` is read and written only while its `condition` is locked.
    final class Stripe: @unchecked Sendable {
        let condition = NSCondition()
        var callbacks: [ObjectIdentifier: [ParkedCallback]] = [:]
    }

    static let shared = ParkingLot(stripeCount: 64)

    private let stripes: [Stripe]

    init(stripeCount: Int) {
        stripes = (0..<stripeCount).map { _ in Stripe() }
    }

    func stripe(for object: AnyObject) -> Stripe {
        let address = UInt(bitPattern: ObjectIdentifier(object).hashValue)
        return stripes[Int((address >> 4) % UInt(stripes.count))]
    }
}
