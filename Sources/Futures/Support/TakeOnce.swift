import Foundation

/// An object that exactly one of several racing parties takes: the first `take(as:)` gets it,
/// every later one gets `nil`. A timeout's timer and its source race for the future they resolve.
///
/// It holds an existential object, not a generic value, so that its lock is compiled for concrete
/// types (generic code that is not specialized looks up the metadata of each generic type it names).
@usableFromInline
final class TakeOnce: Sendable {
    private let slot: LockedBox<(any AnyObject & Sendable)?>

    @usableFromInline
    init(_ object: some AnyObject & Sendable) {
        slot = LockedBox(object)
    }

    /// The object, to the first caller only; it is no longer held once taken.
    @usableFromInline
    func take<Object: AnyObject>(as type: Object.Type) -> Object? {
        let object = slot.withLock { slot in
            defer { slot = nil }
            return slot
        }
        return object.map { unsafeDowncast($0, to: type) }
    }
}
