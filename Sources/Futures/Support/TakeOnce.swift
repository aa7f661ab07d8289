import Foundation

/// An object the first `take(as:)` gets and every later one gets `nil` (a timeout's timer and
/// source race for their future). Existential, not generic, so its lock code is concrete.
final class TakeOnce: Sendable {
    private let slot: LockedBox<(any AnyObject & Sendable)?>

    init(_ object: some AnyObject & Sendable) { slot = LockedBox(object) }

    func take<Object: AnyObject>(as type: Object.Type) -> Object? {
        let object = slot.withLock { slot in
            defer { slot = nil }
            return slot
        }
        return object.map { unsafeDowncast($0, to: type) }
    }
}
