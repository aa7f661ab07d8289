import Synchronization

// The helpers in this folder are those of Tests/FuturesTests/Support that these tests use: a
// test module cannot import another, and these are small enough to keep twice.

/// A thread-safe counter, for "how many times did the work run".
final class Counter: Sendable {
    private let count = Atomic<Int>(0)

    /// Adds one and returns the new count.
    @discardableResult
    func increment() -> Int {
        count.add(1, ordering: .sequentiallyConsistent).newValue
    }

    var value: Int { count.load(ordering: .sequentiallyConsistent) }
}

/// Waits until `condition` holds, sleeping a few microseconds between looks, with a generous safety
/// limit so that a broken engine fails the test instead of hanging it. For events that happen on
/// another thread with nothing to wait on; never a timing assertion.
func eventuallyHolds(limit: Duration = .seconds(60), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + hangLimit(limit)
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        pauseBriefly()
    }
    return true
}
