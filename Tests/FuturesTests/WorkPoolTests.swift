import Dispatch
import Foundation
@testable import Futures
import Testing

/// The work pool behind the global contexts: background futures on them are queued in a pool
/// whose drainers Dispatch runs, instead of one Dispatch block per future.
///
/// Tests that need work to stay queued use a pool of their own on a suspended private queue:
/// no drainer starts until the test resumes the queue.
@Suite(.sharesTheEngine)
struct WorkPoolTests {
    @Test func theGlobalContextsHaveOnePoolPerQualityOfService() {
        let classes: [DispatchQoS.QoSClass] = [.background, .utility, .default, .userInitiated, .userInteractive]
        let pools = classes.map { ExecutionContext.global(qos: $0).pool }
        #expect(pools.allSatisfy { $0 != nil })
        for (index, pool) in pools.enumerated() {
            #expect(pool === ExecutionContext.global(qos: classes[index]).pool)
            for other in pools[(index + 1)...] { #expect(pool !== other) }
        }
        #expect(ExecutionContext.global().pool === ExecutionContext.global(qos: .default).pool)
        #expect(ExecutionContext.global(qos: .unspecified).pool == nil)
        #expect(ExecutionContext.queue(.global()).pool == nil)
        #expect(ExecutionContext.immediate.pool == nil)
    }

    @Test(.timeLimit(.minutes(1)))
    func workRunsAtEveryQualityOfService() {
        let classes: [DispatchQoS.QoSClass] = [
            .background, .utility, .default, .userInitiated, .userInteractive, .unspecified,
        ]
        for qos in classes {
            let runs = (0..<100).map { _ in Counter() }
            let finished = DispatchSemaphore(value: 0)
            let futures = (0..<100).map { index in
                BackgroundFuture(on: .global(qos: qos)) {
                    runs[index].increment()
                    return index
                }
            }
            for future in futures { future.onComplete { _ in finished.signal() } }
            // Half are read at once (the reader may run them); the others only waited for.
            for index in stride(from: 0, to: 100, by: 2) { #expect(futures[index].value == index) }
            for _ in 0..<100 { #expect(finished.wait(timeout: .now() + 60) == .success) }
            #expect(futures.map { $0.peek?.success } == Array(0..<100))
            #expect(runs.allSatisfy { $0.value == 1 })
        }
    }

    /// Threads create futures on the pools and read their own at once while other threads read
    /// them too, round after round: every work runs once, whoever runs it.
    @Test(.timeLimit(.minutes(2)))
    func everyJobRunsExactlyOnceUnderRacingSubmittersAndReaders() {
        let threads = RacingThreads(count: 4)
        defer { threads.stop() }
        let perThread = 32
        for round in 0..<200 {
            let runs = (0..<threads.count * perThread).map { _ in Counter() }
            let made = (0..<threads.count).map { _ in Slot<[Future<Int, Never>]>() }
            threads.race { thread in
                let context = ExecutionContext.global(qos: thread % 2 == 0 ? .default : .utility)
                made[thread].value = (0..<perThread).map { offset in
                    let job = thread * perThread + offset
                    let future = BackgroundFuture(on: context) {
                        runs[job].increment()
                        return job &* round
                    }
                    if offset % 3 == 0 { #expect(future.value == job &* round) }
                    return future
                }
            }
            threads.race { thread in
                // Each thread reads a neighbour's futures, newest first.
                let neighbour = made[(thread + 1) % threads.count].value!
                for (offset, future) in neighbour.enumerated().reversed() {
                    let job = (thread + 1) % threads.count * perThread + offset
                    #expect(future.value == job &* round)
                }
            }
            #expect(runs.allSatisfy { $0.value == 1 })
        }
    }

    /// One future at a time, waited for without being read, so that each is submitted about
    /// when the drainer that ran the one before it leaves: none is stranded.
    @Test(.timeLimit(.minutes(2)))
    func workSubmittedWhileTheDrainersLeaveStillRuns() {
        for round in 0..<5_000 {
            let finished = Signal()
            let future = BackgroundFuture { round }
            future.onComplete { _ in finished.send() }
            #expect(finished.wait())
            #expect(future.peek?.success == round)
        }
    }

    /// Job A waits for job B, both queued on the pool and neither read: B runs only if another
    /// drainer takes it while A's drainer is blocked.
    @Test(.timeLimit(.minutes(2)))
    func aBlockedDrainerDoesNotHoldBackOtherQueuedWork() {
        for _ in 0..<200 {
            let bSignalled = DispatchSemaphore(value: 0)
            let finished = Signal()
            let a = BackgroundFuture { bSignalled.wait(timeout: .now() + 60) == .success }
            let b = BackgroundFuture { bSignalled.signal() }
            a.onComplete { _ in finished.send() }
            #expect(finished.wait())
            #expect(a.peek?.success == true)
            withExtendedLifetime(b) {}
        }
    }

    /// The same with both jobs queued before any drainer starts: the first drainer must request
    /// a second before it runs A.
    @Test(.timeLimit(.minutes(2)))
    func aBlockedDrainerRequestsAnotherForTheWorkQueuedBehindIt() {
        for _ in 0..<100 {
            let held = HeldPool()
            let bSignalled = DispatchSemaphore(value: 0)
            let finished = Signal()
            let a = BackgroundFuture(on: held.context) { bSignalled.wait(timeout: .now() + 60) == .success }
            let b = BackgroundFuture(on: held.context) { bSignalled.signal() }
            a.onComplete { _ in finished.send() }
            held.release()
            #expect(finished.wait())
            #expect(a.peek?.success == true)
            withExtendedLifetime(b) {}
        }
    }

    /// Many more jobs than a drainer's turn, queued before any drainer starts and never read:
    /// turns end and successors take over until every job has run.
    @Test(.timeLimit(.minutes(1)))
    func aLongQueueIsDrainedOverManyTurnsWithoutReaders() {
        let held = HeldPool()
        let count = 10_000
        let runs = (0..<count).map { _ in Counter() }
        let finished = DispatchSemaphore(value: 0)
        let futures = (0..<count).map { index in
            BackgroundFuture(on: held.context) {
                runs[index].increment()
                return index
            }
        }
        for future in futures { future.onComplete { _ in finished.signal() } }
        held.release()
        for _ in 0..<count { #expect(finished.wait(timeout: .now() + 60) == .success) }
        #expect(futures.map { $0.peek?.success } == Array(0..<count))
        #expect(runs.allSatisfy { $0.value == 1 })
    }

    /// Futures that a reader ran while their entries were still queued are kept by the queue
    /// only until a drainer pops the entries; then they are freed.
    @Test(.timeLimit(.minutes(1)))
    func staleEntriesAreReleasedOnceTheDrainersPopThem() {
        let held = HeldPool()
        let runs = Counter()
        var futures: [Future<Int, Never>]? = (0..<100).map { index in
            BackgroundFuture(on: held.context) {
                runs.increment()
                return index
            }
        }
        // A reader inside future work always claims queued work: it runs every one here.
        let values = LazyFuture { [futures] in futures!.map(\.value) }.value
        #expect(values == Array(0..<100))
        #expect(runs.value == 100)
        let watched = futures!.map { WeakBox($0) }
        futures = nil
        #expect(watched.allSatisfy { !$0.isReleased })  // the queue still holds them
        held.release()
        #expect(eventually { watched.allSatisfy(\.isReleased) })
        #expect(runs.value == 100)
    }

    @Test(.timeLimit(.minutes(1)))
    func futuresReadAtOnceOnTheGlobalContextAreFreed() {
        let watched = (0..<1_000).map { index in
            let future = BackgroundFuture { index }
            #expect(future.value == index)
            return WeakBox(future)
        }
        #expect(eventually { watched.allSatisfy(\.isReleased) })
    }

    /// Cancelling a queued future drops its work: the entry is skipped, never run, and freed.
    @Test(.timeLimit(.minutes(1)))
    func aCancelledQueuedFutureNeverRunsAndItsEntryIsFreed() throws {
        let held = HeldPool()
        let runs = Counter()
        let finished = Signal()
        var cancelled: BackgroundFuture<Int, any Error>? = BackgroundFuture(on: held.context) { () throws -> Int in
            runs.increment()
            return 1
        }
        let kept = BackgroundFuture(on: held.context) { () throws -> Int in 2 }
        kept.onComplete { _ in finished.send() }
        #expect(cancelled!.cancel())
        let watched = WeakBox(cancelled!)
        cancelled = nil
        held.release()
        #expect(finished.wait())
        #expect(try kept.value == 2)
        #expect(eventually { watched.isReleased })
        #expect(runs.value == 0)
    }

    /// A pool lives while it has work: its requested drainer holds it after its context is gone,
    /// the queued work still runs, and then the pool is freed. A pool given no work is freed with
    /// its context.
    @Test(.timeLimit(.minutes(1)))
    func aPoolLivesUntilItsWorkIsDrainedAndIsThenFreed() throws {
        let idle = WeakBox(try #require(ExecutionContext(poolingOn: .global()).pool))
        #expect(idle.isReleased)

        var held: HeldPool? = HeldPool()
        let pool = WeakBox(try #require(held!.context.pool))
        let finished = Signal()
        let future = BackgroundFuture(on: held!.context) { 7 }
        future.onComplete { _ in finished.send() }
        let queue = held!.detachQueue()
        held = nil
        #expect(!pool.isReleased)
        queue.resume()
        #expect(finished.wait())
        #expect(future.value == 7)
        #expect(eventually { pool.isReleased })
    }

    @Test func theRingKeepsOrderAcrossGrowthAndWrapAround() {
        var ring = JobRing()
        let jobs = (0..<2_000).map { Marker(id: $0) }
        var expected = 0
        var next = 0
        // Push three, pop two, so the head moves and the buffer grows while wrapped.
        while expected < jobs.count {
            for _ in 0..<3 where next < jobs.count {
                ring.push(PooledJob(jobs[next]) { _ in })
                next += 1
            }
            for _ in 0..<2 {
                guard let popped = ring.pop() else { break }
                #expect((popped.work as? Marker)?.id == expected)
                expected += 1
            }
        }
        #expect(ring.isEmpty)
        #expect(ring.pop() == nil)
    }
}

/// A work pool of its own, on a private concurrent queue that is suspended until `release()`:
/// work given to it stays queued until then.
private final class HeldPool: Sendable {
    private let queue = DispatchQueue(label: "futures-tests.held-pool", attributes: .concurrent)
    let context: ExecutionContext
    private let released = Locked(false)

    init() {
        queue.suspend()
        context = ExecutionContext(poolingOn: queue)
    }

    func release() {
        released.withLock { $0 = true }
        queue.resume()
    }

    /// Hands over the suspended queue: the caller resumes it, after this pool is gone.
    func detachQueue() -> DispatchQueue {
        released.withLock { $0 = true }
        return queue
    }

    deinit {
        if !released.withLock({ $0 }) { queue.resume() }
    }
}

private final class Marker: PooledWork {
    let id: Int
    init(id: Int) { self.id = id }
    func claimFromPool() -> Bool { true }
    var looksUnclaimed: Bool { true }
}

/// Whether `condition` holds within `limit`, looking every millisecond: a bounded wait for
/// something that happens on other threads, never a timing assertion.
private func eventually(limit: Duration = .seconds(30), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + limit
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        usleep(1_000)
    }
    return true
}
