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
    /// What the extended checks count: bounded `all`s' closure calls, and the promises of
    /// laziness, bounds and order.
    let extra: GraphExtraChecks
}

/// The counters behind the promises the first version of the graph did not check.
struct GraphExtraChecks: Sendable {
    /// How many times each bounded `all` called its closure.
    let makeCalls: AtomicCounters
    /// Calls of a bounded `all`'s closure made while `maxConcurrent` of its futures were unresolved,
    /// or out of the items' order.
    let boundViolations: AtomicCounters
    /// 1 for each node whose second callback, on the same serial context as the first, ran before
    /// the first.
    let orderViolations: AtomicCounters
    /// 1 for each node whose two callbacks were both added before it resolved: the docs promise
    /// their order only then ("Callbacks registered before resolution are handed to their contexts
    /// in registration order"; one added after resolution runs at once on the adding thread).
    let addedBeforeResolution: AtomicCounters
    /// How many times the work of a lazy future that nobody reads ran (must be never).
    let unreadWorkRuns: AtomicCounters
    /// Futures derived from those unread lazy futures, by every combinator: none may resolve.
    let unreadDerived: [Future<Int, any Error>]
    /// How many objects captured by each node's closures (work, transforms, inner futures'
    /// work, callbacks) are alive: once every node has resolved and every callback has run, a
    /// future that still holds one keeps a closure it no longer needs.
    let liveCaptures: AtomicCounters
}

/// An object a node's closures capture, counted alive per node in `GraphExtraChecks.liveCaptures`.
final class CapturedWitness: Sendable {
    private let node: Int
    private let live: AtomicCounters

    init(node: Int, live: AtomicCounters) {
        self.node = node
        self.live = live
        live.increment(node)
    }

    deinit { live.decrement(node) }

    /// Used inside a closure so that the closure captures the witness.
    func keep() {}
}

/// The contexts the graph's callbacks run on, made once.
enum GraphContexts {
    static let serial = ExecutionContext.queue(DispatchQueue(label: "random-graph.callbacks"))
    static let dispatch = ExecutionContext { work in DispatchQueue.global().async(execute: work) }
    /// The contexts, and whether each runs its work in order (so that two callbacks keep theirs).
    static let all: [(context: ExecutionContext, inOrder: Bool)] = [
        (.immediate, true), (.global(), false), (.io, false), (serial, true), (dispatch, false),
        (.global(qos: .utility), false),
    ]
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
        let makeCalls = AtomicCounters(count: count)
        let boundViolations = AtomicCounters(count: 1)
        let orderViolations = AtomicCounters(count: count)
        let addedBeforeResolution = AtomicCounters(count: count)
        let unreadWorkRuns = AtomicCounters(count: 1)
        let liveCaptures = AtomicCounters(count: count)
        var unreadDerived: [Future<Int, any Error>] = []
        let allCallbacksRan = Promise<Void, Never>()
        let latePromises = DispatchQueue(label: "random-graph.late-promises")
        var futures: [Future<Int, any Error>] = []
        var promises: [(index: Int, promise: Promise<Int, any Error>)] = []
        futures.reserveCapacity(count)

        for (index, node) in nodes.enumerated() {
            let future: Future<Int, any Error>
            let witness = CapturedWitness(node: index, live: liveCaptures)
            switch node.kind {
            case .leaf(let leafKind, _):
                let outcome = leafStep(index)
                let work: @Sendable () throws -> Int = {
                    witness.keep()
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
                    witness.keep()
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
                    witness.keep()
                    transformRuns.increment(index)
                    return try mapStep(index, value).result.get()
                }
            case .flatMap(let parent, let innerKind):
                future = futures[parent].flatMap { value throws -> Future<Int, any Error> in
                    witness.keep()
                    transformRuns.increment(index)
                    if let failure = flatMapTransformStep(index, value) { _ = try failure.result.get() }
                    innerFutures.increment(0)
                    let inner = flatMapInnerStep(index, value)
                    let innerWitness = CapturedWitness(node: index, live: liveCaptures)
                    switch innerKind {
                    case .lazy:
                        return LazyFuture { () throws -> Int in
                            innerWitness.keep()
                            return try inner.result.get()
                        }
                    case .background:
                        return BackgroundFuture { () throws -> Int in
                            innerWitness.keep()
                            return try inner.result.get()
                        }
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
                    witness.keep()
                    transformRuns.increment(index)
                    return mapErrorStep(Outcome(.failure(error))).result.failureValue
                }
            case .recover(let parent):
                future = futures[parent].recover { (error: any Error) throws -> Int in
                    witness.keep()
                    transformRuns.increment(index)
                    return try recoverStep(index, Outcome(.failure(error))).result.get()
                }
            case .zip(let parents):
                let sources = parents.map { futures[$0] }
                if sources.count == 2 {
                    future = zip(sources[0], sources[1]).map { pair throws -> Int in
                        witness.keep()
                        return try combineStep(index, [.value(pair.0), .value(pair.1)]).result.get()
                    }
                } else {
                    future = zip(sources[0], sources[1], sources[2]).map { triple throws -> Int in
                        witness.keep()
                        return try combineStep(index, [.value(triple.0), .value(triple.1), .value(triple.2)]).result.get()
                    }
                }
            case .all(let parents):
                future = Future.all(parents.map { futures[$0] }).map { values throws -> Int in
                    witness.keep()
                    return try combineStep(index, values.map { .value($0) }).result.get()
                }
            case .first(let parents):
                future = Future.first(of: parents.map { futures[$0] })
            case .flatMapError(let parent, let lazyInner):
                future = futures[parent].flatMapError { (error: any Error) -> Future<Int, any Error> in
                    witness.keep()
                    transformRuns.increment(index)
                    let inner = flatMapErrorStep(index, Outcome(.failure(error)))
                    let innerWitness = CapturedWitness(node: index, live: liveCaptures)
                    if lazyInner {
                        return LazyFuture { () throws -> Int in
                            innerWitness.keep()
                            return try inner.result.get()
                        }
                    }
                    return Future(result: inner.result)
                }
            case .allSettled(let parents):
                future = Future.allSettled(parents.map { futures[$0] }).map { results throws -> Int in
                    witness.keep()
                    return try settledStep(index, results.map(Outcome.init(_:))).result.get()
                }
            case .firstSuccess(let parents):
                future = Future.firstSuccess(of: parents.map { futures[$0] })
            case .boundedAll(let parents, let maxConcurrent):
                let sources = parents.map { futures[$0] }
                let lastMade = Atomic<Int>(-1)
                future = Future.all(sources.indices, maxConcurrent: maxConcurrent) { item -> Future<Int, any Error> in
                    witness.keep()
                    makeCalls.increment(index)
                    // Items in order, each once, and never more than `maxConcurrent` unresolved.
                    if lastMade.exchange(item, ordering: .relaxed) != item - 1 { boundViolations.increment(0) }
                    let unresolved = sources[..<item].filter { !$0.isResolved }.count
                    if unresolved >= maxConcurrent { boundViolations.increment(0) }
                    return sources[item]
                }.map { values throws -> Int in
                    witness.keep()
                    return try combineStep(index, values.map { .value($0) }).result.get()
                }
            case .fold(let parents):
                let rest = parents.dropFirst().map { futures[$0] }
                future = futures[parents[0]].fold(rest) { (total, next) -> Future<Int, any Error> in
                    witness.keep()
                    transformRuns.increment(index)
                    return Future(value: Self.foldStep(total, next))
                }
            }

            if cancellation(of: index) == .atCreation, future.cancel() { cancelWon[index] = 1 }
            let (context, inOrder) = GraphContexts.all[node.salt % GraphContexts.all.count]
            future.onComplete(on: context) { result in
                witness.keep()
                callbackOutcomes[index] = Outcome(result).code
                callbackRuns.increment(index)
                if callbacksTotal.increment(0) == count { allCallbacksRan.succeed() }
            }
            if inOrder {
                // Promises/A+ 2.2.6: on one serial context, callbacks run in the order they were added.
                future.onComplete(on: context) { _ in
                    witness.keep()
                    if callbackRuns[index] != 1 { orderViolations[index] = 1 }
                }
                if !future.isResolved { addedBeforeResolution[index] = 1 }
            }
            if index % 7 == 3 {
                unreadDerived.append(contentsOf: unreadLazyFutures(beside: future, runs: unreadWorkRuns))
            }
            futures.append(future)
        }
        return BuiltGraph(
            futures: futures, promises: promises, workRuns: workRuns, transformRuns: transformRuns,
            cancelWon: cancelWon, completionWon: completionWon, callbackRuns: callbackRuns,
            callbackOutcomes: callbackOutcomes, allCallbacksRan: allCallbacksRan.future, innerFutures: innerFutures,
            extra: GraphExtraChecks(
                makeCalls: makeCalls, boundViolations: boundViolations, orderViolations: orderViolations,
                addedBeforeResolution: addedBeforeResolution,
                unreadWorkRuns: unreadWorkRuns, unreadDerived: unreadDerived, liveCaptures: liveCaptures))
    }

    /// Futures that combine a lazy future nobody reads with `node`, by each combinator: each is
    /// lazy, so nothing may run its work, and none may resolve, however `node` ends.
    private func unreadLazyFutures(beside node: Future<Int, any Error>, runs: AtomicCounters) -> [Future<
        Int, any Error
    >] {
        let unread = LazyFuture { () throws -> Int in
            runs.increment(0)
            return 1
        }
        let pair = [unread, node]
        return [
            unread.map { $0 + 1 },
            unread.flatMap { value in BackgroundFuture { () throws -> Int in value } },
            unread.flatMapError { _ in Future<Int, any Error>(value: 0) },
            unread.recover { _ in 0 },
            zip(unread, node).map { $0.0 + $0.1 },
            Future.all(pair).map { $0.count },
            Future.allSettled(pair).map { $0.count },
            Future.first(of: pair),
            Future.firstSuccess(of: pair),
            Future.all(0..<2, maxConcurrent: 1) { pair[$0] }.map { $0.count },
            unread.fold([node]) { total, next in Future<Int, any Error>(value: total + next) },
            unread.timeout(after: .milliseconds(1)),
        ]
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
