import NIOCore
import NIOEmbedded

/// SwiftNIO's rows, on an `EmbeddedEventLoop`: NIO's futures on their own loop's thread, as NIO
/// code runs them, with no threads or hops counted. A row's name is `nio ` and the name of the
/// row of ours it matches. NIO has no synchronous read of a resolved future on its loop: its rows
/// read with `whenSuccess`, as NIO code does.
let nioRows: [Row] = [
    Row(name: "nio lazy: pending, bytes") { nioPendingPromises($0) },
    Row(name: "nio map step, pending source") { nioMapChain($0, resolved: false) },
    Row(name: "nio map step, resolved source") { nioMapChain($0, resolved: true) },
    Row(name: "nio flatMap step, pending source") { nioFlatMapChain($0, resolved: false) },
    Row(name: "nio flatMap step, resolved source") { nioFlatMapChain($0, resolved: true) },
    Row(name: "nio map step, pending source, any Error") { nioMapChain($0, resolved: false) },
    Row(name: "nio recover step, pending source") { nioRecoverChain($0) },
    Row(name: "nio recover step, pending source, any Error") { nioRecoverChain($0) },
    Row(name: "nio callback on a pending promise") { nioCallbacks($0) },
    Row(name: "nio all per input, resolved") { nioAllResolved($0) },
    Row(name: "nio all per input, pending") { nioAllPending($0) },
    Row(name: "nio promise create+succeed+read") { nioRoundTrips($0) },
    Row(name: "nio zip of two pending promises") { nioZipsOfTwo($0) },
]

private let loop = EmbeddedEventLoop()

@inline(never)
private func nioPendingPromises(_ count: Int) -> AnyObject? {
    var promises: [EventLoopPromise<Int>] = []
    promises.reserveCapacity(count)
    Meter.start()
    for _ in 0..<count { promises.append(loop.makePromise(of: Int.self)) }
    let kept = Kept(promises)
    // A promise must not be dropped pending; the measurement is taken before the kept array goes.
    return KeptPromises(kept)
}

/// Pending promises kept for their bytes to be counted, completed when they are let go.
private final class KeptPromises {
    let kept: Kept<EventLoopPromise<Int>>
    init(_ kept: Kept<EventLoopPromise<Int>>) { self.kept = kept }
    deinit { for promise in kept.values { promise.succeed(0) } }
}

@inline(never)
private func nioMapChain(_ count: Int, resolved: Bool) -> AnyObject? {
    let promise = loop.makePromise(of: Int.self)
    var future = resolved ? loop.makeSucceededFuture(opaque(0)) : promise.futureResult
    for _ in 0..<count { future = future.map { $0 &+ 1 } }
    promise.succeed(opaque(0))
    future.whenSuccess { sink($0) }
    return nil
}

@inline(never)
private func nioFlatMapChain(_ count: Int, resolved: Bool) -> AnyObject? {
    let promise = loop.makePromise(of: Int.self)
    var future = resolved ? loop.makeSucceededFuture(opaque(0)) : promise.futureResult
    for _ in 0..<count { future = future.flatMap { loop.makeSucceededFuture($0 &+ 1) } }
    promise.succeed(opaque(0))
    future.whenSuccess { sink($0) }
    return nil
}

@inline(never)
private func nioRecoverChain(_ count: Int) -> AnyObject? {
    let promise = loop.makePromise(of: Int.self)
    var future = promise.futureResult
    for _ in 0..<count { future = future.recover { _ in 1 } }
    promise.fail(GateFailure())
    future.whenSuccess { sink($0) }
    return nil
}

@inline(never)
private func nioCallbacks(_ count: Int) -> AnyObject? {
    for index in 0..<count {
        let promise = loop.makePromise(of: Int.self)
        promise.futureResult.whenSuccess { sink($0) }
        promise.succeed(index)
    }
    return nil
}

@inline(never)
private func nioAllResolved(_ count: Int) -> AnyObject? {
    let futures = (0..<count).map { loop.makeSucceededFuture(opaque($0)) }
    EventLoopFuture.whenAllSucceed(futures, on: loop).whenSuccess { sink($0.count) }
    return nil
}

@inline(never)
private func nioAllPending(_ count: Int) -> AnyObject? {
    let promises = (0..<count).map { _ in loop.makePromise(of: Int.self) }
    let all = EventLoopFuture.whenAllSucceed(promises.map(\.futureResult), on: loop)
    for (index, promise) in promises.enumerated() { promise.succeed(index) }
    all.whenSuccess { sink($0.count) }
    return nil
}

@inline(never)
private func nioRoundTrips(_ count: Int) -> AnyObject? {
    for index in 0..<count {
        let promise = loop.makePromise(of: Int.self)
        promise.succeed(index)
        promise.futureResult.whenSuccess { sink($0) }
    }
    return nil
}

@inline(never)
private func nioZipsOfTwo(_ count: Int) -> AnyObject? {
    for index in 0..<count {
        let first = loop.makePromise(of: Int.self)
        let second = loop.makePromise(of: Int.self)
        let both = first.futureResult.and(second.futureResult)
        first.succeed(index)
        second.succeed(opaque(1))
        both.whenSuccess { sink($0.0 &+ $0.1) }
    }
    return nil
}
