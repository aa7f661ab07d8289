import Benchmark
import BenchmarkPeers
import Dispatch
import Futures

/// Row group 8: the toolbox of issue 13 beside the nearest Swift alternative, a task group.
///
/// - timeout: a trivial background job read under a one-second timeout that never fires, against
///   `withThrowingTaskGroup` racing the job with `Task.sleep` (the usual recipe); per operation.
/// - all(maxConcurrent:): 1,000 trivial background jobs, at most 4 in flight, values in order,
///   against a `TaskGroup` that keeps 4 children and adds one as each finishes; per job.
/// - completions: 1,000 trivial background jobs consumed as they finish, against `for await`
///   over a `TaskGroup`; per job.
func registerToolbox() {
    let perOperation = Benchmark.Configuration(scalingFactor: .kilo, maxDuration: .seconds(2))
    let batch = Benchmark.Configuration(scalingFactor: .kilo, maxDuration: .seconds(2))

    Benchmark("8 timeout, in time: Future.timeout(after:)", configuration: perOperation) { benchmark in
        for index in benchmark.scaledIterations {
            let timed = BackgroundFuture { opaque(index) }.timeout(after: .seconds(1))
            sink(try! timed.value)
        }
    }

    Benchmark("8 timeout, in time: peer withThrowingTaskGroup racing Task.sleep", configuration: perOperation) {
        benchmark in
        for index in benchmark.scaledIterations {
            sink(try! await valueRacingSleep(index, timeout: .seconds(1)))
        }
    }

    Benchmark("8 all, 1,000 jobs, 4 at a time: Future.all(maxConcurrent:)", configuration: batch) { benchmark in
        let count = benchmark.scaledIterations.count
        let values = Future.all(0..<count, maxConcurrent: 4) { index in BackgroundFuture { opaque(index) } }.value
        sink(values.count)
    }

    Benchmark("8 all, 1,000 jobs, 4 at a time: peer TaskGroup", configuration: batch) { benchmark in
        let values = await boundedTaskGroup(count: benchmark.scaledIterations.count, maxConcurrent: 4)
        sink(values.count)
    }

    Benchmark("8 completions, 1,000 jobs: Future.completions(of:)", configuration: batch) { benchmark in
        let futures = (0..<benchmark.scaledIterations.count).map { index in BackgroundFuture { opaque(index) } }
        var sum = 0
        for await result in Future.completions(of: futures) {
            if case .success(let value) = result { sum &+= value }
        }
        sink(sum)
    }

    Benchmark("8 completions, 1,000 jobs: peer TaskGroup for await", configuration: batch) { benchmark in
        let count = benchmark.scaledIterations.count
        let sum = await withTaskGroup(of: Int.self) { group in
            for index in 0..<count { group.addTask { opaque(index) } }
            var sum = 0
            for await value in group { sum &+= value }
            return sum
        }
        sink(sum)
    }
}

private struct TimedOut: Error {}

/// The value of a trivial child task, raced against a sleep of `timeout`.
private func valueRacingSleep(_ index: Int, timeout: Duration) async throws -> Int {
    try await withThrowingTaskGroup(of: Int.self) { group in
        group.addTask { opaque(index) }
        group.addTask {
            try await Task.sleep(for: timeout)
            throw TimedOut()
        }
        let first = try await group.next()!
        group.cancelAll()
        return first
    }
}

/// `count` trivial child tasks, at most `maxConcurrent` at a time, their values in order.
private func boundedTaskGroup(count: Int, maxConcurrent: Int) async -> [Int] {
    await withTaskGroup(of: (Int, Int).self) { group in
        var values = [Int](repeating: 0, count: count)
        var next = 0
        while next < min(maxConcurrent, count) {
            let index = next
            group.addTask { (index, opaque(index)) }
            next += 1
        }
        for await (index, value) in group {
            values[index] = value
            if next < count {
                let index = next
                group.addTask { (index, opaque(index)) }
                next += 1
            }
        }
        return values
    }
}
