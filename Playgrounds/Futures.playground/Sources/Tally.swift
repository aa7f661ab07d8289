import Synchronization

/// A thread-safe counter: how many times a closure ran, from whatever threads ran it.
public final class Tally: Sendable {
    private let count = Atomic<Int>(0)

    /// Makes a tally at zero.
    public init() {}

    /// Adds one.
    public func increment() {
        count.add(1, ordering: .sequentiallyConsistent)
    }

    /// The count so far.
    public var value: Int {
        count.load(ordering: .sequentiallyConsistent)
    }
}
