import Foundation

/// A value that exactly one of several racing parties takes: the first `take()` gets it, every
/// later one gets `nil`. A timeout's timer and its source race for the future they resolve.
final class TakeOnce<Value: Sendable>: Sendable {
    private let slot: LockedBox<Value?>

    init(_ value: Value) {
        slot = LockedBox(value)
    }

    /// The value, to the first caller only; it is no longer held once taken.
    func take() -> Value? {
        slot.withLock { slot in
            defer { slot = nil }
            return slot
        }
    }
}
