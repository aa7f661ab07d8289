import Benchmark
import BenchmarkPeers
import Futures

/// Row group 3: create a lazy value whose closure captures an Int, and read it once.
func registerLazyCreation() {
    let creations = Benchmark.Configuration(scalingFactor: .mega, maxDuration: .seconds(2))

    Benchmark("3 lazy, create+read: LazyFuture", configuration: creations) { benchmark in
        for index in benchmark.scaledIterations {
            let captured = index
            let future = LazyFuture { captured &+ 1 }
            sink(future.value)
        }
    }

    Benchmark("3 lazy, create+read: peer closure holder (unsynchronized)", configuration: creations) { benchmark in
        for index in benchmark.scaledIterations {
            let captured = index
            let holder = ClosureHolder { captured &+ 1 }
            sink(holder.value)
        }
    }

    Benchmark("3 lazy, create+read: peer Mutex-guarded once", configuration: creations) { benchmark in
        for index in benchmark.scaledIterations {
            let captured = index
            let once = MutexOnce { captured &+ 1 }
            sink(once.value)
        }
    }
}
