import Benchmark
import BenchmarkPeers
import Dispatch
import Futures
import Synchronization

/// Row group 7: loads that block their thread for 100 ms (a `usleep`, standing in for file or
/// network I/O), N at once, read in order; and a mixed batch, half CPU-bound, half blocking.
///
/// Peers: a thread per load (the floor), `DispatchQueue.global()` with a semaphore per load, and
/// a `TaskGroup` whose children block. The futures rows also record the most threads the process
/// had while they ran; one more row records how many are left once the pools' extra threads have
/// retired.
func registerBlockingLoads() {
    for count in [16, 64, 256, 1_024] {
        // Each iteration takes at least 100 ms, and the slow peers far more: few iterations.
        let configuration = Benchmark.Configuration(
            metrics: [.wallClock, Threads.peak],
            timeUnits: .milliseconds,
            warmupIterations: 1,
            maxDuration: .seconds(3),
            maxIterations: count >= 256 ? 5 : 10
        )
        let slowPeer = Benchmark.Configuration(
            metrics: [.wallClock, Threads.peak],
            timeUnits: .milliseconds,
            warmupIterations: 0,
            maxDuration: .seconds(1),
            maxIterations: count >= 256 ? 1 : 3
        )
        let prefix = "7 blocking, \(count) loads of 100 ms:"

        Benchmark("\(prefix) BackgroundFuture", configuration: configuration) { benchmark in
            let peak = ThreadPeak()
            let futures = (0..<count).map { index in
                BackgroundFuture {
                    if index.isMultiple(of: 8) { peak.sample() }
                    return blockingLoad(index, milliseconds: 100)
                }
            }
            sink(futures.reduce(0) { $0 &+ $1.value })
            benchmark.measurement(Threads.peak, peak.value)
        }

        Benchmark("\(prefix) BackgroundFuture on .io", configuration: configuration) { benchmark in
            let peak = ThreadPeak()
            let futures = (0..<count).map { index in
                BackgroundFuture(on: .io) {
                    if index.isMultiple(of: 8) { peak.sample() }
                    return blockingLoad(index, milliseconds: 100)
                }
            }
            sink(futures.reduce(0) { $0 &+ $1.value })
            benchmark.measurement(Threads.peak, peak.value)
        }

        Benchmark("\(prefix) peer thread per load", configuration: configuration) { _ in
            sink(loadsOnAThreadEach(count: count, milliseconds: 100))
        }

        Benchmark("\(prefix) peer DispatchQueue.global()", configuration: slowPeer) { _ in
            sink(loadsOnDispatch(count: count, milliseconds: 100))
        }

        Benchmark("\(prefix) peer TaskGroup", configuration: slowPeer) { _ in
            sink(await loadsInATaskGroup(count: count, milliseconds: 100))
        }
    }

    // Half CPU-bound (20 ms each), half blocking (100 ms each), interleaved, read in order: the
    // computing half keeps the cores, the blocking half must not wait for them.
    let mixed = Benchmark.Configuration(
        metrics: [.wallClock, Threads.peak], timeUnits: .milliseconds, warmupIterations: 1,
        maxDuration: .seconds(3), maxIterations: 10)
    Benchmark("7 blocking, mixed 16 + 16: BackgroundFuture", configuration: mixed) { benchmark in
        let rounds = Calibration.rounds
        let peak = ThreadPeak()
        let futures = (0..<32).map { index in
            BackgroundFuture {
                if index.isMultiple(of: 4) { peak.sample() }
                return index.isMultiple(of: 2)
                    ? spin(rounds: rounds, seed: index) : blockingLoad(index, milliseconds: 100)
            }
        }
        sink(futures.reduce(0) { $0 &+ $1.value })
        benchmark.measurement(Threads.peak, peak.value)
    }
    Benchmark("7 blocking, mixed 16 + 16: peer thread per load", configuration: mixed) { _ in
        let rounds = Calibration.rounds
        let jobs = (0..<32).map { index in
            ThreadJob {
                index.isMultiple(of: 2) ? spin(rounds: rounds, seed: index) : blockingLoad(index, milliseconds: 100)
            }
        }
        sink(jobs.reduce(0) { $0 &+ $1.value })
    }
    Benchmark("7 blocking, mixed 16 + 16: peer DispatchQueue.global()", configuration: mixed) { _ in
        let rounds = Calibration.rounds
        let jobs = (0..<32).map { index in
            DispatchJob {
                index.isMultiple(of: 2) ? spin(rounds: rounds, seed: index) : blockingLoad(index, milliseconds: 100)
            }
        }
        sink(jobs.reduce(0) { $0 &+ $1.value })
    }
    Benchmark("7 blocking, mixed 16 + 16: sequential CPU half alone", configuration: mixed) { _ in
        let rounds = Calibration.rounds
        for index in stride(from: 0, to: 32, by: 2) { sink(spin(rounds: rounds, seed: index)) }
    }

    // After the rows above, the threads left once the pools' extra threads have retired (they
    // retire after 2 s idle).
    Benchmark(
        "7 blocking, threads settled 3 s after the loads",
        configuration: .init(metrics: [Threads.settled], warmupIterations: 0, maxIterations: 1)
    ) { benchmark in
        let futures = (0..<256).map { index in BackgroundFuture { blockingLoad(index, milliseconds: 100) } }
        sink(futures.reduce(0) { $0 &+ $1.value })
        try? await Task.sleep(for: .seconds(3))
        benchmark.measurement(Threads.settled, processThreadCount())
    }
}

enum Threads {
    static let peak = BenchmarkMetric.custom("peak threads", polarity: .prefersSmaller, useScalingFactor: false)
    static let settled = BenchmarkMetric.custom("threads settled", polarity: .prefersSmaller, useScalingFactor: false)
}

/// The most threads the process had at the moments it was sampled (every few loads: reading
/// `/proc/self/status` takes some microseconds).
private final class ThreadPeak: Sendable {
    private let highest = Atomic<Int>(0)

    func sample() {
        let count = processThreadCount()
        var seen = highest.load(ordering: .relaxed)
        while count > seen {
            let (exchanged, original) = highest.compareExchange(expected: seen, desired: count, ordering: .relaxed)
            if exchanged { break }
            seen = original
        }
    }

    var value: Int { highest.load(ordering: .relaxed) }
}
