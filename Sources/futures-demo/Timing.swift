import Foundation

/// Wall-clock times of repeated runs, measured with `ContinuousClock`, and the CPU time the
/// process spent on all its threads meanwhile.
struct Timing {
    private(set) var samples: [Duration] = []
    /// Total CPU time over all samples, or `nil` if the system cannot tell.
    private(set) var cpuTime: Duration? = .zero

    /// Runs `body` once, adds its duration to the samples, and returns its result.
    mutating func measure<T>(_ body: () throws(DemoError) -> T) throws(DemoError) -> T {
        let clock = ContinuousClock()
        let cpuStart = Self.processCPUTime()
        let start = clock.now
        let result = try body()
        samples.append(clock.now - start)
        if let cpuStart, let cpuEnd = Self.processCPUTime(), let total = cpuTime {
            cpuTime = total + (cpuEnd - cpuStart)
        } else {
            cpuTime = nil
        }
        return result
    }

    var best: Duration { samples.min() ?? .zero }

    var median: Duration {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .zero }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// CPU time over wall time, all samples together: how many cores were busy on average.
    var coresBusy: Double? {
        let wall = samples.reduce(Duration.zero, +)
        guard let cpuTime, wall > .zero else { return nil }
        return cpuTime.milliseconds / wall.milliseconds
    }

    /// The CPU time this process has used so far, on all its threads.
    private static func processCPUTime() -> Duration? {
        var time = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time) == 0 else { return nil }
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}

extension Duration {
    /// The duration in milliseconds, as a `Double`.
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e3 + Double(attoseconds) * 1e-15
    }
}
