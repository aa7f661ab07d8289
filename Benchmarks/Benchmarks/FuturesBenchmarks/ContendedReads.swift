import Benchmark
import BenchmarkPeers
import Futures

/// Row group 4: the same resolved value read by 1 and by 2 threads at once.
///
/// Each thread of a team does 1M reads per iteration; the time per read is the wall time of the
/// iteration divided by 1M, so with 2 threads twice the reads happen in that time. A read that
/// writes shared memory (a lock, a reference count) makes the cache line bounce between the
/// cores and the 2-thread time grows; a read that only loads it stays flat.
///
/// Wall time also grows when another process holds one of the two cores, as on a shared
/// machine; so each row also records the CPU time its threads spent per read (custom metric,
/// picoseconds), which only the cache-line fight moves.
func registerContendedReads() {
    let future = resolvedFuture(42)
    let condition = ConditionBox(opaque(42))
    let plain = PlainBox(opaque(42))

    for threads in [1, 2] {
        registerTeam("4 contended, \(threads) thread(s): Future.value", threads: threads) { iterations in
            for _ in 0..<iterations { sink(future.value) }
        }
        registerTeam("4 contended, \(threads) thread(s): peer stored property", threads: threads) { iterations in
            for _ in 0..<iterations { sink(plain.value) }
        }
        registerTeam("4 contended, \(threads) thread(s): peer NSCondition", threads: threads) { iterations in
            for _ in 0..<iterations { sink(condition.value) }
        }
    }
}

/// CPU time per read, in picoseconds, summed over the team's threads.
let cpuPerRead = BenchmarkMetric.custom("CPU time per read (ps)", polarity: .prefersSmaller, useScalingFactor: false)

private final class TeamSlot: @unchecked Sendable {
    // @unchecked: touched only by the benchmark's setup, body and teardown, which run in turn.
    var team: ThreadTeam?
}

private func registerTeam(_ name: String, threads: Int, body: @escaping @Sendable (Int) -> Void) {
    let slot = TeamSlot()
    Benchmark(
        name,
        configuration: .init(metrics: [.wallClock, .mallocCountTotal, cpuPerRead], scalingFactor: .mega)
    ) { benchmark in
        let reads = benchmark.scaledIterations.count
        let cpuNanoseconds = slot.team!.run(iterations: reads)
        benchmark.measurement(cpuPerRead, cpuNanoseconds * 1_000 / (reads * threads))
    } setup: {
        slot.team = ThreadTeam(size: threads, body: body)
    } teardown: {
        slot.team?.stop()
        slot.team = nil
    }
}
