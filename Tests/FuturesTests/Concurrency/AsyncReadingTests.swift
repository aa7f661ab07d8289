import Foundation
import Testing

@testable import Futures

/// A synchronous helper of the kind user code has. The compiler refuses `future.value` inside an
/// async function (blocking reads are `noasync`), but it cannot see through a synchronous
/// function called from one: the reads here block the calling thread, a thread of Swift's
/// cooperative pool.
private func blockingTotal(of futures: [Future<Int, Never>]) -> Int {
    futures.reduce(0) { $0 + $1.value }
}

/// Reading from async code: `get()` suspends and holds no thread; blocking reads smuggled into
/// async code through a synchronous helper block a pool thread, and must still not deadlock.
@Suite("reading from async code")
struct AsyncReadingTests {
    @Test("get() on one lazy future from 64 tasks and 4 threads at once runs its work once, 50 times")
    func lazyGetFromManyTasks() async {
        for repetition in 0..<50 {
            let runs = CallCounter()
            let future = LazyFuture {
                runs.increment(); return repetition
            }
            let threadValues = LockedBox<[Int]>([])
            let threads = (0..<4).map { _ in
                onNewThread {
                    let value = readBlocking(future)
                    threadValues.withLock { $0.append(value) }
                }
            }
            let taskValues = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<64 { group.addTask { await future.get() } }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }
            for thread in threads { await thread.get() }
            #expect(runs.value == 1, "repetition \(repetition)")
            #expect(taskValues == Array(repeating: repetition, count: 64), "repetition \(repetition)")
            #expect(threadValues.withLock { $0 } == Array(repeating: repetition, count: 4), "repetition \(repetition)")
        }
    }

    @Test("1,000 tasks suspended in get() at once hold no thread: all resume when their promises complete")
    func thousandSuspendedReaders() async {
        let count = 1_000
        let promises = (0..<count).map { _ in Promise<Int, Never>() }
        let watchdog = HangWatchdog(limit: .seconds(120)) { "1,000 tasks suspended in get() did not all resume" }
        defer { watchdog.disarm() }
        // A plain thread completes the promises, in reverse order, only once every task has
        // registered its wake-up: had get() parked a thread, 2 pool threads could not hold 1,000 waits.
        let completer = onNewThread {
            for promise in promises {
                while promise.future._state.load(ordering: .acquiring) & StateWord.callbacksBit == 0 { pauseBriefly() }
            }
            for (index, promise) in promises.enumerated().reversed() { promise.succeed(index) }
        }
        let values = await withTaskGroup(of: (Int, Int).self) { group in
            for index in 0..<count { group.addTask { (index, await promises[index].future.get()) } }
            return await group.reduce(into: [(Int, Int)]()) { $0.append($1) }
        }
        await completer.get()
        #expect(values.count == count)
        #expect(values.allSatisfy { $0.0 == $0.1 })
    }

    /// Every thread of the pool blocked at once: the test needs the whole cooperative pool to
    /// itself, so it runs in a process of its own. In the test process its tasks would wait for
    /// pool threads that neighbouring tests hold (a blocked task waits for a second one that may
    /// never start), and hold one themselves meanwhile: that starved the async readers of other
    /// tests and hung CI runs (reproduced every time with `FUTURES_TEST_NARROW_POOL=1`, see
    /// docs/testing.md). In its own process it also checks the report of such reads.
    @Test(
        "blocking reads through a synchronous helper from 64 tasks at once finish, even with every pool thread blocked, and are reported once"
    )
    func blockingReadsFromManyTasks() async {
        let exit = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            exitIfNotTrapped(within: .seconds(240), status: EXIT_FAILURE)
            let tasks = 64
            let cores = ProcessInfo.processInfo.activeProcessorCount
            let blocked = PeakGauge()
            let everyPoolThreadBlocked = DispatchSemaphore(value: 0)
            let reported = DispatchSemaphore(value: 0)
            FutureDiagnostics.mainThreadWaitThreshold = .milliseconds(20)
            FutureDiagnostics.handler = { report in
                writeLine("report: \(report.problem) | \(report.future) | \(report.creationSite)")
                writeLine("text: \(report.description)")
                if report.problem == .blockingReadOnCooperativeThread { reported.signal() }
            }
            let promises = (0..<tasks).map { _ in Promise<Int, Never>() }
            writeLine("promise site: \(promises[0].future._creationSite)")
            // The promises are completed by a plain thread once as many tasks are blocked in the
            // helper as the pool has threads, and one of their reads has been reported: then no
            // pool thread is free, and the reads must still finish. The background futures'
            // work is claimed by the blocked readers themselves.
            let completer = onNewThread {
                everyPoolThreadBlocked.wait()
                reported.wait()
                for (index, promise) in promises.enumerated() { promise.succeed(index) }
            }
            let totals = await withTaskGroup(of: (Int, Int).self) { group in
                for index in 0..<tasks {
                    group.addTask {
                        if blocked.enter() == cores { everyPoolThreadBlocked.signal() }
                        defer { blocked.leave() }
                        let fanOut = BackgroundFuture {
                            (0..<4).map { offset in BackgroundFuture { index + offset } }
                                .reduce(0) { $0 + $1.value }
                        }
                        let total = blockingTotal(of: [promises[index].future, fanOut, LazyFuture { index }])
                        return (index, total)
                    }
                }
                return await group.reduce(into: [(Int, Int)]()) { $0.append($1) }
            }
            await completer.get()
            writeLine("finished: \(totals.count)")
            writeLine("all right: \(totals.allSatisfy { index, total in total == 6 * index + 6 })")
            writeLine("peak blocked: \(blocked.peak) of \(cores)")
        }
        let lines = outputLines(exit)
        let site = value(after: "promise site: ", in: lines)
        #expect(lines.contains("finished: 64"))
        #expect(lines.contains("all right: true"))
        let cores = ProcessInfo.processInfo.activeProcessorCount
        #expect(value(after: "peak blocked: ", in: lines).hasSuffix(" of \(cores)"))
        // 64 reads of futures from one site: one report.
        #expect(
            lines.filter { $0.hasPrefix("report: ") } == [
                "report: blockingReadOnCooperativeThread | Future<Int> (promise) | \(site)"
            ])
        let text = value(after: "text: ", in: lines)
        #expect(text.hasPrefix("a blocking read on a thread of Swift's cooperative pool has waited "))
        #expect(text.contains("for Future<Int> (promise) created at \(site), and still waits"))
        #expect(text.contains("Read it with await get() in async code"))
    }
}
