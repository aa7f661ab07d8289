import Benchmark
import BenchmarkPeers
import Futures
import NIOCore

/// Row group 9: composition (issue 22), per step or per item, beside SwiftNIO's `EventLoopFuture`
/// on a one-thread loop and, for `all`, a `TaskGroup`.
///
/// Each iteration builds, resolves, reads and frees one whole chain or batch. The NIO rows run
/// each iteration inside one `submit` on the loop and time it there (the hop to the loop and back
/// is not counted), as NIO code runs on its own loop. Rows of 1,000 steps are per step as the tool
/// shows them; rows of 100,000 steps show the time per 100 steps (the tool's scaling tops out at
/// its `kilo` below a million), which `table.py` divides by 100.
///
/// - map, pending source: a promise's future, `map { $0 + 1 }` N times, then the promise succeeds
///   and the last future is read.
/// - map, resolved source: the same on `Future(value:)`.
/// - flatMap to a resolved future, pending or resolved source: `flatMap { Future(value: $0 + 1) }`.
/// - callback: a new promise, one `onSuccess` (`.immediate`), the promise succeeds; per callback.
/// - all, resolved: `Future.all` of 1,000 `Future(value:)` made in the iteration, read; per item.
/// - all, pending: 1,000 promises, `Future.all` of their futures, each succeeds, read; per item.
/// - round trip: a promise made, succeeded, its future read; per promise.
/// - recover, pending source: a promise's future (`any Error`), `recover` that keeps the error type
///   1,000 times, then the promise succeeds and the last future is read; per step. NIO: `recover`.
/// - zip of two pending promises: two promises, `zip` of their futures, both succeed, the pair
///   is read; per zip. NIO: `and`.
/// - all of two pending promises: two promises, `Future.all` of their futures, both succeed, the
///   values are read; per `all`. NIO: `whenAllSucceed`.
/// - get, resolved: `await future.get()` on a resolved future; per read. Peer: `await task.value`
///   of a finished `Task`.
func registerComposition() {
    let steps = Benchmark.Configuration(scalingFactor: .kilo, maxDuration: .seconds(1))
    let longChains = Benchmark.Configuration(scalingFactor: .kilo, maxDuration: .seconds(3), maxIterations: 12)

    for (label, length, configuration) in [("1,000", 1, steps), ("100,000", 100, longChains)] {
        Benchmark("9 map x\(label), pending source: Future", configuration: configuration) { benchmark in
            sink(mapChainOnPromise(length * benchmark.scaledIterations.count))
        }
        Benchmark("9 map x\(label), pending source: peer NIO", configuration: configuration) { benchmark in
            let count = length * benchmark.scaledIterations.count
            onLoopTimed(benchmark) { loop in nioMapChain(count, on: loop, resolved: false) }
        }
        Benchmark("9 map x\(label), resolved source: Future", configuration: configuration) { benchmark in
            sink(mapChainOnResolved(length * benchmark.scaledIterations.count))
        }
        Benchmark("9 map x\(label), resolved source: peer NIO", configuration: configuration) { benchmark in
            let count = length * benchmark.scaledIterations.count
            onLoopTimed(benchmark) { loop in nioMapChain(count, on: loop, resolved: true) }
        }
        Benchmark("9 flatMap x\(label), pending source: Future", configuration: configuration) { benchmark in
            sink(flatMapChain(length * benchmark.scaledIterations.count, resolved: false))
        }
        Benchmark("9 flatMap x\(label), pending source: peer NIO", configuration: configuration) { benchmark in
            let count = length * benchmark.scaledIterations.count
            onLoopTimed(benchmark) { loop in nioFlatMapChain(count, on: loop, resolved: false) }
        }
        Benchmark("9 flatMap x\(label), resolved source: Future", configuration: configuration) { benchmark in
            sink(flatMapChain(length * benchmark.scaledIterations.count, resolved: true))
        }
        Benchmark("9 flatMap x\(label), resolved source: peer NIO", configuration: configuration) { benchmark in
            let count = length * benchmark.scaledIterations.count
            onLoopTimed(benchmark) { loop in nioFlatMapChain(count, on: loop, resolved: true) }
        }
    }

    Benchmark("9 callback on a pending promise: Future.onSuccess", configuration: steps) { benchmark in
        for index in benchmark.scaledIterations {
            let promise = Promise<Int, Never>()
            promise.future.onSuccess { sink($0) }
            promise.succeed(index)
        }
    }
    Benchmark("9 callback on a pending promise: peer NIO whenSuccess", configuration: steps) { benchmark in
        let count = benchmark.scaledIterations.count
        onLoopTimed(benchmark) { loop in
            for index in 0..<count {
                let promise = loop.makePromise(of: Int.self)
                promise.futureResult.whenSuccess { sink($0) }
                promise.succeed(index)
            }
        }
    }

    Benchmark("9 all x1,000, resolved: Future.all", configuration: steps) { benchmark in
        let futures = (0..<benchmark.scaledIterations.count).map { Future<Int, Never>(value: opaque($0)) }
        sink(Future.all(futures).value.count)
    }
    Benchmark("9 all x1,000, resolved: peer NIO whenAllSucceed", configuration: steps) { benchmark in
        let count = benchmark.scaledIterations.count
        onLoopTimed(benchmark) { loop in
            let futures = (0..<count).map { loop.makeSucceededFuture(opaque($0)) }
            EventLoopFuture.whenAllSucceed(futures, on: loop).whenSuccess { sink($0.count) }
        }
    }
    Benchmark("9 all x1,000, resolved: peer TaskGroup", configuration: steps) { benchmark in
        sink(await taskGroupValues(benchmark.scaledIterations.count).count)
    }
    Benchmark("9 all x1,000, pending: Future.all", configuration: steps) { benchmark in
        let promises = (0..<benchmark.scaledIterations.count).map { _ in Promise<Int, Never>() }
        let all = Future.all(promises.map(\.future))
        for (index, promise) in promises.enumerated() { promise.succeed(index) }
        sink(all.value.count)
    }
    Benchmark("9 all x1,000, pending: peer NIO whenAllSucceed", configuration: steps) { benchmark in
        let count = benchmark.scaledIterations.count
        onLoopTimed(benchmark) { loop in
            let promises = (0..<count).map { _ in loop.makePromise(of: Int.self) }
            let all = EventLoopFuture.whenAllSucceed(promises.map(\.futureResult), on: loop)
            for (index, promise) in promises.enumerated() { promise.succeed(index) }
            all.whenSuccess { sink($0.count) }
        }
    }

    Benchmark("9 recover x1,000, pending source: Future", configuration: steps) { benchmark in
        sink(recoverChainOnPromise(benchmark.scaledIterations.count))
    }
    Benchmark("9 recover x1,000, pending source: peer NIO", configuration: steps) { benchmark in
        let count = benchmark.scaledIterations.count
        onLoopTimed(benchmark) { loop in nioRecoverChain(count, on: loop) }
    }

    Benchmark("9 zip of two pending promises: Future zip", configuration: steps) { benchmark in
        for index in benchmark.scaledIterations {
            let first = Promise<Int, Never>()
            let second = Promise<Int, Never>()
            let both = zip(first.future, second.future)
            first.succeed(index)
            second.succeed(opaque(1))
            let (left, right) = both.value
            sink(left &+ right)
        }
    }
    Benchmark("9 zip of two pending promises: peer NIO and", configuration: steps) { benchmark in
        let count = benchmark.scaledIterations.count
        onLoopTimed(benchmark) { loop in
            for index in 0..<count {
                let first = loop.makePromise(of: Int.self)
                let second = loop.makePromise(of: Int.self)
                let both = first.futureResult.and(second.futureResult)
                first.succeed(index)
                second.succeed(opaque(1))
                both.whenSuccess { sink($0.0 &+ $0.1) }
            }
        }
    }

    Benchmark("9 all of two pending promises: Future.all", configuration: steps) { benchmark in
        for index in benchmark.scaledIterations {
            let first = Promise<Int, Never>()
            let second = Promise<Int, Never>()
            let both = Future.all([first.future, second.future])
            first.succeed(index)
            second.succeed(opaque(1))
            let values = both.value
            sink(values[0] &+ values[1])
        }
    }
    Benchmark("9 all of two pending promises: peer NIO whenAllSucceed", configuration: steps) { benchmark in
        let count = benchmark.scaledIterations.count
        onLoopTimed(benchmark) { loop in
            for index in 0..<count {
                let first = loop.makePromise(of: Int.self)
                let second = loop.makePromise(of: Int.self)
                let both = EventLoopFuture.whenAllSucceed([first.futureResult, second.futureResult], on: loop)
                first.succeed(index)
                second.succeed(opaque(1))
                both.whenSuccess { sink($0[0] &+ $0[1]) }
            }
        }
    }

    Benchmark("9 get, resolved: Future.get()", configuration: steps) { benchmark in
        let future = Future<Int, Never>(value: opaque(42))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            sink(await future.get())
        }
    }
    Benchmark("9 get, resolved: peer Task.value", configuration: steps) { benchmark in
        let task = Task { opaque(42) }
        _ = await task.value
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            sink(await task.value)
        }
    }

    Benchmark("9 round trip, create+succeed+read: Promise", configuration: steps) { benchmark in
        for index in benchmark.scaledIterations {
            let promise = Promise<Int, Never>()
            promise.succeed(index)
            sink(promise.future.value)
        }
    }
    Benchmark("9 round trip, create+succeed+read: peer NIO", configuration: steps) { benchmark in
        let count = benchmark.scaledIterations.count
        onLoopTimed(benchmark) { loop in
            for index in 0..<count {
                let promise = loop.makePromise(of: Int.self)
                promise.succeed(index)
                promise.futureResult.whenSuccess { sink($0) }
            }
        }
    }
}

/// The benchmark, handed to the loop's thread, which times `body` there while the benchmark's
/// thread waits for it.
private struct TimedOnLoop: @unchecked Sendable {
    // @unchecked: the benchmark is touched by one thread at a time; the submitting thread blocks
    // in `wait()` while the loop runs the closure.
    let benchmark: Benchmark
}

/// Runs `body` on the NIO peer's loop in one `submit`, timed inside it.
private func onLoopTimed(_ benchmark: Benchmark, _ body: @escaping @Sendable (any EventLoop) -> Void) {
    let timed = TimedOnLoop(benchmark: benchmark)
    let loop = NIOPeer.loop
    try! loop.submit {
        timed.benchmark.startMeasurement()
        body(loop)
        timed.benchmark.stopMeasurement()
    }.wait()
}

@inline(never)
private func mapChainOnPromise(_ count: Int) -> Int {
    let promise = Promise<Int, Never>()
    var future = promise.future
    for _ in 0..<count { future = future.map { $0 &+ 1 } }
    promise.succeed(opaque(0))
    return future.value
}

@inline(never)
private func mapChainOnResolved(_ count: Int) -> Int {
    var future = Future<Int, Never>(value: opaque(0))
    for _ in 0..<count { future = future.map { $0 &+ 1 } }
    return future.value
}

@inline(never)
private func flatMapChain(_ count: Int, resolved: Bool) -> Int {
    let promise = Promise<Int, Never>()
    var future = resolved ? Future<Int, Never>(value: opaque(0)) : promise.future
    for _ in 0..<count { future = future.flatMap { Future(value: $0 &+ 1) } }
    promise.succeed(opaque(0))
    return future.value
}

@inline(never)
private func recoverChainOnPromise(_ count: Int) -> Int {
    let promise = Promise<Int, any Error>()
    var future = promise.future
    for _ in 0..<count { future = future.recover { (_: any Error) throws(any Error) -> Int in 0 } }
    promise.succeed(opaque(1))
    return try! future.value
}

@inline(never)
private func nioRecoverChain(_ count: Int, on loop: any EventLoop) {
    let promise = loop.makePromise(of: Int.self)
    var future = promise.futureResult
    for _ in 0..<count { future = future.recover { _ in 0 } }
    promise.succeed(opaque(1))
    future.whenSuccess { sink($0) }
}

@inline(never)
private func nioMapChain(_ count: Int, on loop: any EventLoop, resolved: Bool) {
    let promise = loop.makePromise(of: Int.self)
    var future = resolved ? loop.makeSucceededFuture(opaque(0)) : promise.futureResult
    for _ in 0..<count { future = future.map { $0 &+ 1 } }
    promise.succeed(opaque(0))
    future.whenSuccess { sink($0) }
}

@inline(never)
private func nioFlatMapChain(_ count: Int, on loop: any EventLoop, resolved: Bool) {
    let promise = loop.makePromise(of: Int.self)
    var future = resolved ? loop.makeSucceededFuture(opaque(0)) : promise.futureResult
    for _ in 0..<count { future = future.flatMap { loop.makeSucceededFuture($0 &+ 1) } }
    promise.succeed(opaque(0))
    future.whenSuccess { sink($0) }
}

/// `count` trivial child tasks, their values collected in order.
private func taskGroupValues(_ count: Int) async -> [Int] {
    await withTaskGroup(of: (Int, Int).self) { group in
        for index in 0..<count { group.addTask { (index, opaque(index)) } }
        var values = [Int](repeating: 0, count: count)
        for await (index, value) in group { values[index] = value }
        return values
    }
}
