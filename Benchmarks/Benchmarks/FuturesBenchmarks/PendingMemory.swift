import Benchmark
import BenchmarkPeers
import Futures
import NIOCore

/// Row group 6: memory of 1M pending values whose closure captures an Int.
///
/// The malloc counts and requested bytes are per value (the tool divides by the 1M). The bytes
/// are what the program asked malloc for; what the allocator really holds for them is measured
/// by `futures-memory` (see BENCHMARKS.md), as the interposer behind these counts adds its own
/// header to every block.
func registerPendingMemory() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .mallocBytesCount],
        warmupIterations: 1,
        scalingFactor: .mega,
        maxDuration: .seconds(3),
        maxIterations: 5
    )

    Benchmark("6 pending x1M: LazyFuture", configuration: configuration) { benchmark in
        var futures: [LazyFuture<Int, Never>] = []
        futures.reserveCapacity(benchmark.scaledIterations.count)
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            let captured = index
            futures.append(LazyFuture { captured &+ 1 })
        }
        benchmark.stopMeasurement()
        sink(futures.count)
    }

    Benchmark("6 pending x1M: peer closure holder", configuration: configuration) { benchmark in
        var holders: [ClosureHolder] = []
        holders.reserveCapacity(benchmark.scaledIterations.count)
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            let captured = index
            holders.append(ClosureHolder { captured &+ 1 })
        }
        benchmark.stopMeasurement()
        sink(holders.count)
    }

    Benchmark("6 pending x1M: peer NIO EventLoopPromise", configuration: configuration) { benchmark in
        var promises: [EventLoopPromise<Int>] = []
        promises.reserveCapacity(benchmark.scaledIterations.count)
        let loop = NIOPeer.loop
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            promises.append(loop.makePromise(of: Int.self))
        }
        benchmark.stopMeasurement()
        sink(promises.count)
    }
}
