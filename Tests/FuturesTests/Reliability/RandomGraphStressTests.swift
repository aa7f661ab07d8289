import Foundation
import Testing

@testable import Futures

/// The knobs of the random-graph stress test, from the environment.
///
/// - `FUTURES_STRESS_SEED=<n>` replays one seed (the failure message names it);
/// - `FUTURES_STRESS_SEEDS=<n>` runs seeds 1 through n (default 40);
/// - `FUTURES_STRESS_NODES=<n>` sets the number of nodes per graph (default 2,500).
///
/// Under a sanitizer, without either seed variable, a run takes half of the default seeds:
/// ThreadSanitizer the first half, AddressSanitizer the second. CI runs both, so every seed still
/// runs under a sanitizer once, at half the time each (the random graphs were the longest test of
/// both sanitizer runs, 59 s and 28 s).
enum StressSettings {
    static let seeds: [UInt64] = {
        if let seed = environmentInteger("FUTURES_STRESS_SEED") { return [UInt64(seed)] }
        if let count = environmentInteger("FUTURES_STRESS_SEEDS") { return Array(1...UInt64(max(1, count))) }
        return sanitizerShare(of: Array(1...40))
    }()

    /// The seeds of `all` this process runs: all of them without a sanitizer, the first half
    /// under ThreadSanitizer, the second under AddressSanitizer.
    static func sanitizerShare(of all: [UInt64]) -> [UInt64] {
        let half = all.count / 2
        if runsUnderThreadSanitizer { return Array(all[..<half]) }
        if runsUnderAddressSanitizer { return Array(all[half...]) }
        return all
    }
    static let nodeCount = environmentInteger("FUTURES_STRESS_NODES") ?? 2_500
    static let blockingReaders = 4
    static let asyncReaders = 4
}

@Suite("random graphs of futures against a sequential oracle", .serialized)
struct RandomGraphStressTests {
    @Test(
        "every reader of a random graph sees what the oracle computes, and all work runs exactly once",
        arguments: StressSettings.seeds)
    func randomGraph(seed: UInt64) async {
        let start = ContinuousClock.now
        let graph = RandomGraph(seed: seed, count: StressSettings.nodeCount)
        let built = graph.build()
        // Which actors of the run are done, for the watchdog's message: blocking readers, async
        // readers, the promise completer and the canceller.
        let done = AtomicCounters(count: 4)
        let watchdog = HangWatchdog(limit: .seconds(120)) {
            let pending = built.futures.indices.filter { !built.futures[$0].isResolved }
            let pool = (ExecutionContext.global().scheduler.runner as? ThreadPool)?.stateDescription ?? "?"
            return "random graph seed \(seed) did not finish (replay: FUTURES_STRESS_SEED=\(seed)); "
                + "\(pending.count) nodes unresolved, the first: \(pending.prefix(10).map { "\($0) \(graph.nodes[$0].kind)" }); "
                + "done: \(done[0])/\(StressSettings.blockingReaders) blocking readers, "
                + "\(done[1])/\(StressSettings.asyncReaders) async readers, completer \(done[2]), canceller \(done[3]); "
                + "callbacks run: \(built.allCallbacksRan.isResolved ? "all" : "not all"); global context: \(pool)"
        }
        defer { watchdog.disarm() }

        let blockingObservations = LockedBox([[Outcome]](repeating: [], count: StressSettings.blockingReaders))
        var threads = (0..<StressSettings.blockingReaders).map { reader in
            onNewThread {
                let seen = graph.readBlocking(built, reader: reader)
                blockingObservations.withLock { $0[reader] = seen }
                done.increment(0)
            }
        }
        threads.append(
            onNewThread {
                graph.completePromises(of: built)
                done.increment(2)
            })
        threads.append(
            onNewThread {
                graph.cancelRacingNodes(of: built)
                done.increment(3)
            })
        let asyncObservations = await withTaskGroup(of: [Outcome].self) { group in
            for reader in 0..<StressSettings.asyncReaders {
                group.addTask {
                    defer { done.increment(1) }
                    return await graph.readAsync(built, reader: reader)
                }
            }
            return await group.reduce(into: [[Outcome]]()) { $0.append($1) }
        }
        for thread in threads { await thread.get() }
        await built.allCallbacksRan.get()

        let observations = blockingObservations.withLock { $0 } + asyncObservations
        let (problems, summary) = graph.check(built, observations: observations)
        #expect(
            problems.isEmpty,
            """
            random graph seed \(seed) (replay: FUTURES_STRESS_SEED=\(seed)): \(problems.count) problems, the first:
            \(problems.prefix(12).joined(separator: "\n"))
            """)
        // Every node has resolved and every callback has run: no future may still hold a closure,
        // so every object the closures captured must go (a pool job or a callback may still be
        // unwinding, hence the wait; the limit only turns a leak into a failure, not a timing).
        let leaked = await nodesWithLiveCaptures(built, waitingAtMost: .seconds(10))
        #expect(
            leaked.isEmpty,
            """
            random graph seed \(seed) (replay: FUTURES_STRESS_SEED=\(seed)): objects captured by the closures of \
            \(leaked.count) nodes were still alive 10 s after every node resolved and every callback ran \
            (a future still holds a closure), the first: \(leaked.prefix(10).map { "\($0) \(graph.nodes[$0].kind)" })
            """)
        reportFigure(
            "random graph seed \(seed): \(graph.futureCount(innerFutures: built.innerFutures[0])) futures "
                + "(\(graph.nodes.count) nodes), "
                + "\(observations.count) readers; \(summary.values) values, \(summary.failures) failures, "
                + "\(summary.cancellations) cancelled (racing cancels won \(summary.racyCancellationsWon), "
                + "lost \(summary.racyCancellationsLost)); \(ContinuousClock.now - start)")
    }

    /// The nodes whose closures' captured objects are still alive, once none is or after `limit`.
    private func nodesWithLiveCaptures(_ built: BuiltGraph, waitingAtMost limit: Duration) async -> [Int] {
        let live = built.extra.liveCaptures
        let deadline = ContinuousClock.now + limit
        while true {
            let leaked = (0..<live.count).filter { live[$0] != 0 }
            if leaked.isEmpty || ContinuousClock.now >= deadline { return leaked }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test("the same seed gives the same graph and the same outcomes")
    func graphIsReproducible() {
        let first = RandomGraph(seed: 42, count: 500)
        let second = RandomGraph(seed: 42, count: 500)
        let other = RandomGraph(seed: 43, count: 500)
        #expect(first.nodes.map { "\($0.kind) \($0.salt)" } == second.nodes.map { "\($0.kind) \($0.salt)" })
        #expect(first.nodes.map(\.salt) != other.nodes.map(\.salt))
        #expect((0..<500).map(first.leafStep) == (0..<500).map(second.leafStep))
    }
}
