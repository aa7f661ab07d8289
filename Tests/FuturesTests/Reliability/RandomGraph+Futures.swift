import Foundation
import Synchronization

@testable import Futures

/// A random graph built as futures, with the counters that the oracle checks afterwards.
struct BuiltGraph: Sendable {
    let futures: [Future<Int, any Error>]
    /// The promise of each promise leaf, by node index.
    let promises: [(index: Int, promise: Promise<Int, any Error>)]
    /// How many times each node's own work (leaf or reading work) ran.
    let workRuns: AtomicCounters
    /// How many times each derived node's closure ran.
    let transformRuns: AtomicCounters
    /// 1 where `cancel()` returned true.
    let cancelWon: AtomicCounters
    /// 1 where completing the promise returned true.
    let completionWon: AtomicCounters
    /// How many times each node's `onComplete` callback ran, and the outcome it got.
    let callbackRuns: AtomicCounters
    let callbackOutcomes: AtomicCounters
    /// Completed when every node's callback has run.
    let allCallbacksRan: Future<Void, Never>
    /// Inner futures made by flatMap transforms.
    let innerFutures: AtomicCounters
}

extension RandomGraph {
    /// Builds the graph as futures. Lazy leaves and promises marked `atCreation` are cancelled as
    /// they are made, before any later node can reach them; background futures marked so are
    /// cancelled at once too, racing their own start.
    func build() -> BuiltGraph {
        let count = nodes.count
        let workRuns = AtomicCounters(count: count)
        let transformRuns = AtomicCounters(count: count)
        let cancelWon = AtomicCounters(count: count)
        let completionWon = AtomicCounters(count: count)
        let callbackRuns = AtomicCounters(count: count)
        let callbackOutcomes = AtomicCounters(count: count)
        let callbacksTotal = AtomicCounters(count: 1)
        let innerFutures = AtomicCounters(count: 1)
        let allCallbacksRan = Promise<Void, Never>()
        let latePromises = DispatchQueue(label: "random-graph.late-promises")
        var futures: [Future<Int, any Error>] = []
        var promises: [(index: Int, promise: Promise<Int, any Error>)] = []
        futures.reserveCapacity(count)

        for (index, node) in nodes.enumerated() {
            let future: Future<Int, any Error>
            switch node.kind {
            case .leaf(let leafKind, _):
                let outcome = leafStep(index)
                let work: @Sendable () throws -> Int = {
                    workRuns.increment(index)
                    return try outcome.result.get()
                }
                switch leafKind {
                case .background: future = BackgroundFuture(work)
                case .lazy: future = LazyFuture(work)
                case .promise:
                    let promise = Promise<Int, any Error>()
                    promises.append((index, promise))
                    future = promise.future
                }
            case .readingWork(let lazy, let parents, _):
                let sources = parents.map { futures[$0] }
                let work: @Sendable () throws -> Int = {
                    workRuns.increment(index)
                    var outcomes: [Outcome] = []
                    for source in sources {
                        let outcome = Outcome(source.result)
                        outcomes.append(outcome)
                        guard case .value = outcome else { break }
                    }
                    return try readingStep(index, outcomes).result.get()
                }
                future = lazy ? LazyFuture(work) : BackgroundFuture(work)
            case .map(let parent):
                future = futures[parent].map { value throws -> Int in
                    transformRuns.increment(index)
                    return try mapStep(index, value).result.get()
                }
            case .flatMap(let parent, let innerKind):
                future = futures[parent].flatMap { value throws -> Future<Int, any Error> in
                    transformRuns.increment(index)
                    if let failure = flatMapTransformStep(index, value) { _ = try failure.result.get() }
                    innerFutures.increment(0)
                    let inner = flatMapInnerStep(index, value)
                    switch innerKind {
                    case .lazy: return LazyFuture { () throws -> Int in try inner.result.get() }
                    case .background: return BackgroundFuture { () throws -> Int in try inner.result.get() }
                    case .resolvedPromise:
                        let promise = Promise<Int, any Error>()
                        promise.complete(with: inner.result)
                        return promise.future
                    case .latePromise:
                        let promise = Promise<Int, any Error>()
                        latePromises.async { promise.complete(with: inner.result) }
                        return promise.future
                    }
                }
            case .mapError(let parent):
                future = futures[parent].mapError { error -> any Error in
                    transformRuns.increment(index)
                    return mapErrorStep(Outcome(.failure(error))).result.failureValue
                }
            case .recover(let parent):
                future = futures[parent].recover { (error: any Error) throws -> Int in
                    transformRuns.increment(index)
                    return try recoverStep(index, Outcome(.failure(error))).result.get()
                }
            case .zip(let parents):
                let sources = parents.map { futures[$0] }
                if sources.count == 2 {
                    future = zip(sources[0], sources[1]).map { pair throws -> Int in
                        try combineStep(index, [.value(pair.0), .value(pair.1)]).result.get()
                    }
                } else {
                    future = zip(sources[0], sources[1], sources[2]).map { triple throws -> Int in
                        try combineStep(index, [.value(triple.0), .value(triple.1), .value(triple.2)]).result.get()
                    }
                }
            case .all(let parents):
                future = Future.all(parents.map { futures[$0] }).map { values throws -> Int in
                    try combineStep(index, values.map { .value($0) }).result.get()
                }
            case .first(let parents):
                future = Future.first(of: parents.map { futures[$0] })
            }

            if cancellation(of: index) == .atCreation, future.cancel() { cancelWon[index] = 1 }
            future.onComplete { result in
                callbackOutcomes[index] = Outcome(result).code
                callbackRuns.increment(index)
                if callbacksTotal.increment(0) == count { allCallbacksRan.succeed() }
            }
            futures.append(future)
        }
        return BuiltGraph(
            futures: futures, promises: promises, workRuns: workRuns, transformRuns: transformRuns,
            cancelWon: cancelWon, completionWon: completionWon, callbackRuns: callbackRuns,
            callbackOutcomes: callbackOutcomes, allCallbacksRan: allCallbacksRan.future, innerFutures: innerFutures)
    }

    // MARK: The actors of a run

    /// Completes every promise leaf, in a random order.
    func completePromises(of graph: BuiltGraph) {
        var random = SeededGenerator(seed: seed ^ 0xC0FF_EE00)
        for (index, promise) in graph.promises.shuffled(using: &random) {
            if promise.complete(with: leafStep(index).result) { graph.completionWon[index] = 1 }
        }
    }

    /// Cancels every node marked `racing`, in a random order, while the readers run; between two
    /// cancellations it glances at a random node, so that the cancellations spread over the run.
    func cancelRacingNodes(of graph: BuiltGraph) {
        var random = SeededGenerator(seed: seed ^ 0xCA9C_E100)
        let racing = nodes.indices.filter { cancellation(of: $0) == .racing }.shuffled(using: &random)
        for index in racing {
            _ = graph.futures[Int.random(in: 0..<nodes.count, using: &random)].result(timeout: .microseconds(50))
            if graph.futures[index].cancel() { graph.cancelWon[index] = 1 }
        }
    }

    /// Reads every node once, in a random order, with a random blocking accessor each time.
    func readBlocking(_ graph: BuiltGraph, reader: Int) -> [Outcome] {
        var random = SeededGenerator(seed: seed &+ 0x5EED &* UInt64(reader + 1))
        var seen = [Outcome](repeating: .unexpected("unread"), count: nodes.count)
        for index in nodes.indices.shuffled(using: &random) {
            let future = graph.futures[index]
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                seen[index] = Outcome(future.result)
            case 1:
                do { seen[index] = .value(try future.value) } catch { seen[index] = Outcome(.failure(error)) }
            case 2:
                let timeout = Duration.microseconds(Int.random(in: 20...500, using: &random))
                var result = future.result(timeout: timeout)
                while result == nil { result = future.result(timeout: timeout) }
                seen[index] = Outcome(result!)
            default:
                let early = future.peek.map(Outcome.init(_:))
                let outcome = Outcome(future.result)
                seen[index] = early == nil || early == outcome ? outcome : .unexpected("peek saw \(early!)")
            }
        }
        return seen
    }

    /// Reads every node once, in a random order, with `get()`.
    func readAsync(_ graph: BuiltGraph, reader: Int) async -> [Outcome] {
        var random = SeededGenerator(seed: seed &+ 0xA5E7 &* UInt64(reader + 1))
        var seen = [Outcome](repeating: .unexpected("unread"), count: nodes.count)
        for index in nodes.indices.shuffled(using: &random) {
            do { seen[index] = .value(try await graph.futures[index].get()) } catch {
                seen[index] = Outcome(.failure(error))
            }
        }
        return seen
    }
}

extension Result {
    /// The error of a failed result; only for results known to have failed.
    fileprivate var failureValue: Failure {
        guard case .failure(let error) = self else { preconditionFailure("the result \(self) is not a failure") }
        return error
    }
}
