import Benchmark
import BenchmarkPeers
import Futures
import NIOCore
import NIOPosix
import ReadLoops

/// Row group 1: reading a value that is already there, 1M reads per iteration.
func registerResolvedReads() {
    let reads = Benchmark.Configuration(scalingFactor: .mega)

    // The rows of a read whose loop is longer than 16 bytes run it in `ReadLoops`, whose
    // functions start a 64-byte line (Benchmarks/Package.swift), as does the stored property each
    // turn reloads, which they are compared with.
    Benchmark("1 read: Future.value, resolved", configuration: reads) { benchmark in
        let future = resolvedFuture(42)
        benchmark.startMeasurement()
        readValues(of: future, count: benchmark.scaledIterations.count)
    }

    // The variable keeps the future's own type, as `let page = BackgroundFuture { ... }` does:
    // a member of `Future` read through it once converted the reference to `Future`, a retain
    // and a release around every read (BENCHMARKS.md, seventh round).
    Benchmark("1 read: BackgroundFuture.value, resolved, through its own type", configuration: reads) { benchmark in
        let captured = opaque(42)
        let future = BackgroundFuture { captured }
        _ = future.value
        benchmark.startMeasurement()
        readValues(of: future, count: benchmark.scaledIterations.count)
    }

    Benchmark("1 read: peer stored property", configuration: reads) { benchmark in
        let box = PlainBox(opaque(42))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            sink(box.value)
        }
    }

    // The same box, but the loop's calls may change it: a box the optimizer cannot see into,
    // as the future is, so that each iteration really loads the property (above, the compiler
    // hoists the load out of the loop, and the row times the loop and `sink` alone).
    Benchmark("1 read: peer stored property, reloaded", configuration: reads) { benchmark in
        let box = PlainBox(opaque(42))
        publish(box)
        benchmark.startMeasurement()
        readValues(of: box, count: benchmark.scaledIterations.count)
    }

    Benchmark("1 read: peer Atomic load", configuration: reads) { benchmark in
        let box = AtomicBox(opaque(42))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            sink(box.value)
        }
    }

    Benchmark("1 read: peer Mutex", configuration: reads) { benchmark in
        let box = MutexBox(opaque(42))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            sink(box.value)
        }
    }

    Benchmark("1 read: peer NSCondition", configuration: reads) { benchmark in
        let box = ConditionBox(opaque(42))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            sink(box.value)
        }
    }

    // NIO's wait() on a succeeded future hops to the event loop to be told the result, so it is
    // measured 1,000 reads per iteration.
    Benchmark(
        "1 read: peer NIO EventLoopFuture.wait(), succeeded",
        configuration: .init(scalingFactor: .kilo, maxDuration: .seconds(2))
    ) { benchmark in
        let future = NIOPeer.loop.makeSucceededFuture(opaque(42))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            sink(try! future.wait())
        }
    }
}

/// A `Future<Int, Never>` already resolved to `value`, as a caller that received it sees it.
///
/// Not inlined: the caller must not learn that the future is in fact a `LazyFuture` (a final
/// class), or the optimizer devirtualizes the read and measures a case users rarely have.
@inline(never)
func resolvedFuture(_ value: Int) -> Future<Int, Never> {
    let captured = opaque(value)
    let future: Future<Int, Never> = LazyFuture { captured }
    _ = future.value
    return future
}

/// The one event loop the NIO rows use.
enum NIOPeer {
    static let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    static let loop = group.next()
}
