import Synchronization

/// Counts events from any thread: how many times a piece of work ran.
final class Counter: Sendable {
    private let storage = Atomic<Int>(0)

    var value: Int { storage.load(ordering: .acquiring) }

    @discardableResult
    func increment() -> Int {
        storage.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
    }
}
