import Futures

/// The library's rows. Each `@inline(never)` function is the loop of one row.
let futuresRows: [Row] = [
    Row(name: "read: Future.value, resolved") { readResolved($0) },
    Row(name: "lazy: create+read") { lazyCreateRead($0) },
    Row(name: "lazy: pending, bytes") { lazyPending($0) },
    Row(name: "background: BackgroundFuture { x }.value") { backgroundHandOff($0) },
    Row(name: "map step, pending source") { mapChain($0, resolved: false) },
    Row(name: "map step, resolved source") { mapChain($0, resolved: true) },
    Row(name: "flatMap step, pending source") { flatMapChain($0, resolved: false) },
    Row(name: "flatMap step, resolved source") { flatMapChain($0, resolved: true) },
    Row(name: "map step, pending source, any Error") { anyErrorMapChain($0) },
    Row(name: "recover step, pending source") { recoverChain($0) },
    Row(name: "recover step, pending source, any Error") { anyErrorRecoverChain($0) },
    Row(name: "mapError step, pending source") { mapErrorChain($0) },
    Row(name: "callback on a pending promise") { callbacks($0) },
    Row(name: "all per input, resolved") { allResolved($0) },
    Row(name: "all per input, pending") { allPending($0) },
    Row(name: "promise create+succeed+read") { roundTrips($0) },
    Row(name: "zip of two pending promises") { zipsOfTwo($0) },
]

@inline(never)
private func readResolved(_ count: Int) -> AnyObject? {
    let future = Future<Int, Never>(value: opaque(42))
    for _ in 0..<count { sink(future.value) }
    return nil
}

@inline(never)
private func lazyCreateRead(_ count: Int) -> AnyObject? {
    for index in 0..<count {
        let captured = index
        let future = LazyFuture { captured &+ 1 }
        sink(future.value)
    }
    return nil
}

@inline(never)
private func lazyPending(_ count: Int) -> AnyObject? {
    var futures: [LazyFuture<Int, Never>] = []
    futures.reserveCapacity(count)
    Meter.start()
    for index in 0..<count {
        let captured = opaque(index)
        futures.append(LazyFuture { captured &+ 1 })
    }
    return Kept(futures)
}

@inline(never)
private func backgroundHandOff(_ count: Int) -> AnyObject? {
    for index in 0..<count {
        let future = BackgroundFuture { opaque(index) }
        sink(future.value)
    }
    return nil
}

@inline(never)
private func mapChain(_ count: Int, resolved: Bool) -> AnyObject? {
    let promise = Promise<Int, Never>()
    var future = resolved ? Future<Int, Never>(value: opaque(0)) : promise.future
    for _ in 0..<count { future = future.map { $0 &+ 1 } }
    promise.succeed(opaque(0))
    sink(future.value)
    return nil
}

@inline(never)
private func flatMapChain(_ count: Int, resolved: Bool) -> AnyObject? {
    let promise = Promise<Int, Never>()
    var future = resolved ? Future<Int, Never>(value: opaque(0)) : promise.future
    for _ in 0..<count { future = future.flatMap { Future(value: $0 &+ 1) } }
    promise.succeed(opaque(0))
    sink(future.value)
    return nil
}

/// The error of the `recover` row's promise.
struct GateFailure: Error {}

@inline(never)
private func recoverChain(_ count: Int) -> AnyObject? {
    let promise = Promise<Int, GateFailure>()
    var future = promise.future
    for _ in 0..<count { future = future.recover { (_: GateFailure) throws(GateFailure) -> Int in 1 } }
    promise.fail(GateFailure())
    sink((try? future.value) ?? 0)
    return nil
}

/// A failable chain, as NIO's always is: each child can be cancelled.
@inline(never)
private func anyErrorMapChain(_ count: Int) -> AnyObject? {
    let promise = Promise<Int, any Error>()
    var future = promise.future
    for _ in 0..<count { future = future.map { $0 &+ 1 } }
    promise.succeed(opaque(0))
    sink((try? future.value) ?? 0)
    return nil
}

@inline(never)
private func anyErrorRecoverChain(_ count: Int) -> AnyObject? {
    let promise = Promise<Int, any Error>()
    var future = promise.future
    for _ in 0..<count { future = future.recover { (_: any Error) throws(any Error) -> Int in 1 } }
    promise.fail(GateFailure())
    sink((try? future.value) ?? 0)
    return nil
}

@inline(never)
private func mapErrorChain(_ count: Int) -> AnyObject? {
    let promise = Promise<Int, GateFailure>()
    var future = promise.future
    for _ in 0..<count { future = future.mapError { $0 } }
    promise.fail(GateFailure())
    sink((try? future.value) ?? 0)
    return nil
}

@inline(never)
private func callbacks(_ count: Int) -> AnyObject? {
    for index in 0..<count {
        let promise = Promise<Int, Never>()
        promise.future.onSuccess { sink($0) }
        promise.succeed(index)
    }
    return nil
}

@inline(never)
private func allResolved(_ count: Int) -> AnyObject? {
    let futures = (0..<count).map { Future<Int, Never>(value: opaque($0)) }
    sink(Future.all(futures).value.count)
    return nil
}

@inline(never)
private func allPending(_ count: Int) -> AnyObject? {
    let promises = (0..<count).map { _ in Promise<Int, Never>() }
    let all = Future.all(promises.map(\.future))
    for (index, promise) in promises.enumerated() { promise.succeed(index) }
    sink(all.value.count)
    return nil
}

@inline(never)
private func roundTrips(_ count: Int) -> AnyObject? {
    for index in 0..<count {
        let promise = Promise<Int, Never>()
        promise.succeed(index)
        sink(promise.future.value)
    }
    return nil
}

@inline(never)
private func zipsOfTwo(_ count: Int) -> AnyObject? {
    for index in 0..<count {
        let first = Promise<Int, Never>()
        let second = Promise<Int, Never>()
        let both = zip(first.future, second.future)
        first.succeed(index)
        second.succeed(opaque(1))
        let (left, right) = both.value
        sink(left &+ right)
    }
    return nil
}
