/// Wall-clock times of repeated runs, measured with `ContinuousClock`.
struct Timing {
    private(set) var samples: [Duration] = []

    /// Runs `body` once, adds its duration to the samples, and returns its result.
    mutating func measure<T>(_ body: () throws(DemoError) -> T) throws(DemoError) -> T {
        let clock = ContinuousClock()
        let start = clock.now
        let result = try body()
        samples.append(clock.now - start)
        return result
    }

    var best: Duration { samples.min() ?? .zero }

    var median: Duration {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .zero }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

extension Duration {
    /// The duration in milliseconds, as a `Double`.
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e3 + Double(attoseconds) * 1e-15
    }
}
