import Benchmark
import BenchmarkPeers
import Dispatch
import Futures

/// Row group 5: 8 CPU-bound jobs of about 20 ms each, one after another or in parallel.
///
/// The speedup of a row is the sequential row's time divided by its own; the interleaved row
/// measures the three back to back and reports the speedups of each iteration. The rounds per job
/// are calibrated once, before the first of these rows runs.
func registerParallelSpeedup() {
    let jobs = 8
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(3),
        maxIterations: 25
    )

    Benchmark("5 parallel, 8 jobs of 20 ms: sequential", configuration: configuration) { _ in
        runSequential(jobs: jobs)
    }

    Benchmark("5 parallel, 8 jobs of 20 ms: BackgroundFuture", configuration: configuration) { _ in
        runBackgroundFutures(jobs: jobs)
    }

    Benchmark("5 parallel, 8 jobs of 20 ms: peer concurrentPerform", configuration: configuration) { _ in
        runConcurrentPerform(jobs: jobs)
    }

    // The three back to back in every iteration, so that a change in the machine's load (other
    // builds share these cores) hits all three alike; the speedups are per iteration, x100.
    Benchmark(
        "5 parallel, 8 jobs of 20 ms: interleaved speedups",
        configuration: .init(
            metrics: [.wallClock, Speedup.backgroundFuture, Speedup.concurrentPerform, Speedup.ofPeer],
            timeUnits: .milliseconds,
            warmupIterations: 1,
            maxDuration: .seconds(6),
            maxIterations: 15
        )
    ) { benchmark in
        let sequential = timed { runSequential(jobs: jobs) }
        let background = timed { runBackgroundFutures(jobs: jobs) }
        let perform = timed { runConcurrentPerform(jobs: jobs) }
        benchmark.measurement(Speedup.backgroundFuture, Int(100 * sequential / background))
        benchmark.measurement(Speedup.concurrentPerform, Int(100 * sequential / perform))
        benchmark.measurement(Speedup.ofPeer, Int(100 * perform / background))
    }
}

enum Speedup {
    static let backgroundFuture = BenchmarkMetric.custom(
        "speedup x100, BackgroundFuture", polarity: .prefersLarger, useScalingFactor: false)
    static let concurrentPerform = BenchmarkMetric.custom(
        "speedup x100, concurrentPerform", polarity: .prefersLarger, useScalingFactor: false)
    static let ofPeer = BenchmarkMetric.custom(
        "BackgroundFuture / concurrentPerform x100", polarity: .prefersLarger, useScalingFactor: false)
}

private func runSequential(jobs: Int) {
    for job in 0..<jobs { sink(spin(rounds: Calibration.rounds, seed: job)) }
}

private func runBackgroundFutures(jobs: Int) {
    let rounds = Calibration.rounds
    let futures = (0..<jobs).map { job in BackgroundFuture { spin(rounds: rounds, seed: job) } }
    for future in futures { sink(future.value) }
}

private func runConcurrentPerform(jobs: Int) {
    let rounds = Calibration.rounds
    DispatchQueue.concurrentPerform(iterations: jobs) { job in
        sink(spin(rounds: rounds, seed: job))
    }
}

/// The wall time of `body`, in seconds.
private func timed(_ body: () -> Void) -> Double {
    let start = ContinuousClock.now
    body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
}

enum Calibration {
    /// `spin` rounds that take about 20 ms here; measured on first use.
    static let rounds = calibratedRounds(for: .milliseconds(20))
}
