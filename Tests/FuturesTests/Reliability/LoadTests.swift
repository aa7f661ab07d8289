import Foundation
import Testing

@testable import Futures

/// Load: many futures in flight, work that blocks, and nested waits on a pool that cannot grow.
/// The figures these tests print (`[reliability] …`, with `FUTURES_TEST_FIGURES=1`) are the ones
/// docs/testing.md, "What the reliability tests prove", describes.
@Suite("load: futures in flight, blocking work, bounded threads", .serialized)
struct LoadTests {
    @Test("100,000 background futures in flight at once each run once and every reader gets every value")
    func hundredThousandInFlight() async {
        let count = 100_000
        let start = ContinuousClock.now
        // An inactive queue holds every job until it is activated: all 100,000 futures are in
        // flight at once, none can have started.
        let queue = DispatchQueue(label: "load.in-flight", attributes: [.concurrent, .initiallyInactive])
        let runs = AtomicCounters(count: count)
        let threads = PeakGauge()
        let baselineThreads = processThreadCount()
        var weakSample: [WeakFuture] = []
        var readers: [Future<Void, Never>] = []
        let sums = LockedBox<[Int]>([])
        do {
            let futures: [Future<Int, Never>] = (0..<count).map { index in
                BackgroundFuture(on: .queue(queue)) {
                    runs.increment(index)
                    if index % 1_000 == 0 { threads.record(processThreadCount()) }
                    return index &* 3
                }
            }
            weakSample = stride(from: 0, to: count, by: 997).map { WeakFuture(futures[$0]) }
            #expect(futures.allSatisfy { !$0.isResolved })
            queue.activate()
            // The readers reach the futures through a box that is emptied afterwards, so that
            // no thread keeps them alive once the test lets go of them.
            let shared = LockedBox<[Future<Int, Never>]?>(futures)
            for reader in 0..<4 {
                readers.append(
                    onNewThread {
                        guard let futures = shared.withLock({ $0 }) else { return }
                        var sum = 0
                        // Each reader starts at a different place, so they race on different futures.
                        for offset in 0..<count { sum &+= futures[(offset + reader * count / 4) % count].value }
                        sums.withLock { $0.append(sum) }
                    })
            }
            defer { shared.withLock { $0 = nil } }
            let all = await Future.all(futures).get()
            #expect(all.count == count)
            #expect(all.enumerated().allSatisfy { $0.element == $0.offset &* 3 })
            for reader in readers { await reader.get() }
            reportFigure(
                "\(count) BackgroundFutures in flight at once: threads \(baselineThreads) before, peak "
                    + "\(threads.peak) while running, \(ContinuousClock.now - start) to create, run and read "
                    + "all of them from 4 threads and one Future.all")
        }
        let expectedSum = (0..<count).reduce(0) { $0 &+ $1 &* 3 }
        #expect(sums.withLock { $0 } == Array(repeating: expectedSum, count: 4))
        #expect((0..<count).allSatisfy { runs[$0] == 1 })
        // Once the queue has run every job (each holds its future until it runs), nothing is left.
        queue.sync(flags: .barrier) {}
        #expect(weakSample.allSatisfy { $0.future == nil })
    }

    @Test("1,000 futures whose work sleeps run on a bounded number of threads")
    func thousandSleepingFutures() {
        let count = 1_000
        let start = ContinuousClock.now
        let baseline = processThreadCount()
        let running = PeakGauge()
        let threads = PeakGauge()
        threads.record(baseline)
        let futures = (0..<count).map { index in
            BackgroundFuture {
                running.enter()
                threads.record(processThreadCount())
                Thread.sleep(forTimeInterval: 0.01)
                running.leave()
                return index
            }
        }
        let sum = futures.reduce(0) { $0 + $1.value }
        #expect(sum == count * (count - 1) / 2)
        // Not one thread per blocked future: the global context adds threads for blocked runners
        // up to its bound of 64; the reading thread may run one more piece of work itself.
        #expect(running.peak <= 64 + 1)
        #expect(threads.peak < count)
        reportFigure(
            "\(count) futures sleeping 10 ms each: at most \(running.peak) ran at once; threads \(baseline) before, "
                + "peak \(threads.peak) (cores: \(ProcessInfo.processInfo.activeProcessorCount)); "
                + "\(ContinuousClock.now - start)")
    }

    /// A tree of background futures: each one's work creates `fanOut` children and waits for
    /// them all with blocking reads.
    private static func tree(
        depth: Int, fanOut: Int, on context: ExecutionContext, created: CallCounter
    ) -> Future<Int, Never> {
        created.increment()
        return BackgroundFuture(on: context) {
            guard depth > 0 else { return 1 }
            let children = (0..<fanOut).map { _ in
                tree(depth: depth - 1, fanOut: fanOut, on: context, created: created)
            }
            return children.reduce(0) { $0 + $1.value }
        }
    }

    @Test(
        "a tree of 4,681 background futures, each waiting on its children, finishes even on one serial queue",
        arguments: ["global", "serial"])
    func nestedWaitsNeverStarve(contextName: String) {
        // On a serial queue, every waiting parent holds the only thread: without readers that
        // claim queued work (docs/design.md, Claiming) the first nested read would wait forever.
        let context: ExecutionContext =
            contextName == "serial" ? .queue(DispatchQueue(label: "load.serial")) : .global()
        let start = ContinuousClock.now
        let baseline = processThreadCount()
        let created = CallCounter()
        let root = Self.tree(depth: 4, fanOut: 8, on: context, created: created)
        #expect(root.value == 4_096)
        #expect(created.value == 4_681)
        reportFigure(
            "nested tree of \(created.value) futures on \(contextName): threads \(baseline) before, "
                + "\(processThreadCount()) after; \(ContinuousClock.now - start)")
    }
}

/// A weak reference to a future, to check that futures are freed.
struct WeakFuture: @unchecked Sendable {
    // @unchecked: a weak reference to a Sendable class; reading it is thread-safe.
    weak var future: Future<Int, Never>?
    init(_ future: Future<Int, Never>) { self.future = future }
}
