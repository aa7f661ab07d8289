import Benchmark
import BenchmarkPeers
import Dispatch
import Futures

/// Row group 2: hand a trivial job to the background and read its result.
func registerBackgroundWork() {
    let handOff = Benchmark.Configuration(scalingFactor: .kilo, maxDuration: .seconds(2))

    // Create, run and read at once, one job at a time.
    Benchmark("2 background, create+read: BackgroundFuture", configuration: handOff) { benchmark in
        for index in benchmark.scaledIterations {
            let future = BackgroundFuture { opaque(index) }
            sink(future.value)
        }
    }

    Benchmark("2 background, create+read: peer Dispatch + semaphore", configuration: handOff) { benchmark in
        for index in benchmark.scaledIterations {
            let job = DispatchJob { opaque(index) }
            sink(job.value)
        }
    }

    Benchmark("2 background, create+read: peer Task + await", configuration: handOff) { benchmark in
        for index in benchmark.scaledIterations {
            let task = Task { opaque(index) }
            sink(await task.value)
        }
    }

    Benchmark("2 background, create+read: peer NIO submit().wait()", configuration: handOff) { benchmark in
        for index in benchmark.scaledIterations {
            sink(try! NIOPeer.loop.submit { opaque(index) }.wait())
        }
    }

    // Create 1,000, then read them in order; times are per job.
    Benchmark("2 background, 1,000 then read: BackgroundFuture", configuration: handOff) { benchmark in
        let futures = (0..<benchmark.scaledIterations.count).map { index in
            BackgroundFuture { opaque(index) }
        }
        for future in futures { sink(future.value) }
    }

    Benchmark("2 background, 1,000 then read: peer Dispatch + semaphore", configuration: handOff) { benchmark in
        let jobs = (0..<benchmark.scaledIterations.count).map { index in
            DispatchJob { opaque(index) }
        }
        for job in jobs { sink(job.value) }
    }

    Benchmark("2 background, 1,000 then read: peer Task + await", configuration: handOff) { benchmark in
        var tasks: [Task<Int, Never>] = []
        tasks.reserveCapacity(benchmark.scaledIterations.count)
        for index in benchmark.scaledIterations {
            tasks.append(Task { opaque(index) })
        }
        for task in tasks { sink(await task.value) }
    }
}
