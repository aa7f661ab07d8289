import Foundation

/// What ``timed(_:)`` measured: wall-clock time, and the CPU time the whole process used
/// meanwhile, on all its threads.
public struct TimeTaken: Sendable {
    /// Wall-clock time.
    public let wall: Duration
    /// CPU time of the process, all threads together.
    public let cpu: Duration

    /// CPU time over wall time: how many cores this process kept busy, on average.
    public var coresBusy: String {
        guard wall > .zero else { return "n/a" }
        let hundredths = Int((cpu / wall * 100).rounded())
        return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
    }
}

/// Runs `body` and returns its result with the time it took.
///
/// ```swift
/// let (summaries, time) = timed { files.map { $0.load() } }
/// print(time.wall.inMilliseconds, time.coresBusy)
/// ```
public func timed<Result>(_ body: () -> Result) -> (result: Result, time: TimeTaken) {
    let clock = ContinuousClock()
    let cpuStart = processCPUTime()
    let start = clock.now
    let result = body()
    let wall = clock.now - start
    return (result, TimeTaken(wall: wall, cpu: processCPUTime() - cpuStart))
}

/// The CPU time this process has used so far, on all its threads.
func processCPUTime() -> Duration {
    var time = timespec()
    guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time) == 0 else { return .zero }
    return .seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec))
}

extension Duration {
    /// The duration in milliseconds, for printing: "123.4 ms".
    public var inMilliseconds: String {
        let (seconds, attoseconds) = components
        let tenths = Int((Double(seconds) * 1e4 + Double(attoseconds) * 1e-14).rounded())
        return "\(tenths / 10).\(tenths % 10) ms"
    }

    /// How many times longer this duration is than `other`: "1.93x".
    public func ratio(to other: Duration) -> String {
        guard other > .zero else { return "n/a" }
        let hundredths = Int((self / other * 100).rounded())
        return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)x"
    }
}
