import Synchronization

/// A thread-safe counter, for "how many times did the work run".
package final class Counter: Sendable {
    private let count = Atomic<Int>(0)

    package init() {}

    /// Adds one and returns the new count.
    @discardableResult
    package func increment() -> Int {
        count.add(1, ordering: .sequentiallyConsistent).newValue
    }

    package var value: Int { count.load(ordering: .sequentiallyConsistent) }
}
