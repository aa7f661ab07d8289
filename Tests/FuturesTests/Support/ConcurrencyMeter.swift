import Synchronization

/// Records the largest number of threads that were inside a measured section at once.
final class ConcurrencyMeter: Sendable {
    private let inside = Atomic<Int>(0)
    private let highest = Atomic<Int>(0)

    /// Runs `body` counted as one of the threads inside the section.
    func measure<R>(_ body: () -> R) -> R {
        let now = inside.add(1, ordering: .sequentiallyConsistent).newValue
        var seen = highest.load(ordering: .sequentiallyConsistent)
        while now > seen {
            let (exchanged, original) = highest.compareExchange(
                expected: seen, desired: now, ordering: .sequentiallyConsistent)
            if exchanged { break }
            seen = original
        }
        defer { inside.subtract(1, ordering: .sequentiallyConsistent) }
        return body()
    }

    /// How many threads are inside the section now.
    var current: Int { inside.load(ordering: .sequentiallyConsistent) }

    /// The most threads seen inside the section at once.
    var maximum: Int { highest.load(ordering: .sequentiallyConsistent) }
}

/// Keeps the CPU busy for `duration` of wall-clock time: a stand-in for CPU-bound work.
func spin(for duration: Duration) {
    let clock = ContinuousClock()
    let end = clock.now + duration
    var sink = 0
    while clock.now < end {
        for step in 0..<64 { sink &+= step &* step }
    }
    blackHole(sink)
}

/// Keeps a value alive and opaque to the optimiser.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
