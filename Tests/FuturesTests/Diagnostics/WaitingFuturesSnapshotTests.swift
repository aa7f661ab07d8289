import Foundation
import Testing

@testable import Futures

/// `FutureDiagnostics.waitingFutures()` and `printWaitingFutures()`: the unresolved futures that
/// threads are parked reading, or whose work waits in a pool's queue.
///
/// The snapshot is global: futures of other suites, running at the same time, may be in it. Each
/// test looks only at the entries of its own futures' creation sites, and the tests run one at a
/// time (`.serialized`), as the cases of one test share their creation sites.
@Suite("the snapshot of waiting futures", .serialized)
struct WaitingFuturesSnapshotTests {
    @Test(
        "a future with parked readers is listed with their number, its kind, state and creation site",
        arguments: [1, 3])
    func parkedReadersAreCounted(readers: Int) throws {
        let gate = Gate()
        let future = runningFuture(gate)
        let reads = (0..<readers).map { _ in onNewThread { _ = readBlocking(future) } }
        let entry = try #require(waitForEntry(of: future) { $0.waiters == readers })
        #expect(entry.type == "BackgroundFuture<Int>")
        #expect(entry.kind == .background)
        #expect(entry.state == .running)
        #expect(entry.creationSite == future._creationSite)
        #expect(entry.creationSite.hasPrefix("FuturesTests/WaitingFuturesSnapshotTests.swift:"))
        #expect(!entry.isAwaitedByMainThread)
        #expect(entry.waitingWork.isEmpty)  // top-level readers, running no future's work
        #expect(entry.queue == nil)
        let noun = readers == 1 ? "thread waits" : "threads wait"
        #expect(
            entry.description
                == "BackgroundFuture<Int> created at \(entry.creationSite), running; \(readers) \(noun) for it")
        gate.open()
        for read in reads { readBlocking(read) }
        // Resolved: gone from the snapshot.
        #expect(entries(of: future).isEmpty)
    }

    @Test("top-level readers park outside the cycle table; a thread that runs work parks in it")
    func topLevelReadersStayOutOfTheCycleTable() throws {
        let promise = Promise<Int, Never>()
        let key = ObjectIdentifier(promise.future)
        func inTable() -> Int {
            WaitRegistry.table.withLock { table in
                table.parked.values.filter { ObjectIdentifier($0.future) == key }.count
            }
        }
        let reads = (0..<8).map { _ in onNewThread { _ = readBlocking(promise.future) } }
        _ = try #require(waitForEntry(of: promise.future) { $0.waiters == 8 })
        // Eight parked readers, none of them under the process-wide lock of the cycle check.
        #expect(inTable() == 0)
        let started = DispatchSemaphore(value: 0)
        let work = BackgroundFuture { () -> Int in
            started.signal()
            return readBlocking(promise.future) + 1
        }
        started.wait()
        _ = try #require(waitForEntry(of: promise.future) { $0.waiters == 9 })
        // The work's thread can be part of a cycle: it is in the table.
        #expect(inTable() == 1)
        promise.succeed(1)
        for read in reads { readBlocking(read) }
        #expect(work.value == 2)
        #expect(inTable() == 0)
        #expect(entries(of: promise.future).isEmpty)
    }

    @Test("a promise's future that future work waits for names that work")
    func waitingWorkIsNamed() throws {
        let promise = Promise<Int, Never>()
        let started = DispatchSemaphore(value: 0)
        let work = BackgroundFuture { () -> Int in
            started.signal()
            return readBlocking(promise.future) + 1
        }
        started.wait()
        let read = onNewThread { _ = readBlocking(promise.future) }
        let entry = try #require(waitForEntry(of: promise.future) { $0.waiters == 2 })
        #expect(entry.type == "Future<Int>")
        #expect(entry.kind == .promise)
        #expect(entry.state == .pending)
        #expect(entry.waitingWork == ["BackgroundFuture<Int> created at \(work._creationSite)"])
        #expect(
            entry.description
                == "Future<Int> (promise) created at \(entry.creationSite), pending; 2 threads wait for it: the work of "
                + "BackgroundFuture<Int> created at \(work._creationSite)")
        promise.succeed(1)
        readBlocking(read)
        #expect(readBlocking(work) == 2)
        #expect(entries(of: promise.future).isEmpty)
    }

    @Test("work queued on a pool is listed with the pool's label until it runs")
    func queuedWorkIsListedWithItsQueue() throws {
        let pool = IsolatedPool(label: "ft-snapshot", cpuSlots: 1, maxThreads: 1, detectsBlocking: false)
        let gate = Gate()
        let started = DispatchSemaphore(value: 0)
        // Holds the pool's one thread, so that the next future's work stays in the queue.
        let blocker = BackgroundFuture(on: pool.context) { () -> Int in
            started.signal()
            gate.wait()
            return 1
        }
        started.wait()
        let queued = BackgroundFuture(on: pool.context) { 2 }
        let entry = try #require(entries(of: queued).first)
        #expect(entry.queue == "ft-snapshot")
        #expect(entry.kind == .background)
        #expect(entry.state == .pending)
        #expect(entry.waiters == 0)
        #expect(
            entry.description
                == "BackgroundFuture<Int> created at \(queued._creationSite), pending, queued on ft-snapshot")
        // Running work that nobody waits for is not listed.
        #expect(entries(of: blocker).isEmpty)
        gate.open()
        #expect(readBlocking(blocker) == 1)
        #expect(readBlocking(queued) == 2)
        #expect(entries(of: queued).isEmpty)
    }

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test(
            "printWaitingFutures writes each waiting future, with the main thread among its readers, to standard error"
        )
        func printedSnapshot() async {
            let exit = await #expect(
                processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]
            ) {
                exitIfNotTrapped(within: .seconds(240), status: EXIT_FAILURE)
                FutureDiagnostics.mainThreadWaitThreshold = .seconds(86_400)  // no report in the output
                FutureDiagnostics.printWaitingFutures()  // nothing yet
                let gate = Gate()
                let running = runningFuture(gate)
                let pool = IsolatedPool(
                    label: "ft-snapshot-print", cpuSlots: 1, maxThreads: 1, detectsBlocking: false)
                let blocker = runningFuture(gate, on: pool.context)
                let queued = BackgroundFuture(on: pool.context) { 3 }
                let mainRead = onNewThread { asTheMainThread { _ = readBlocking(running) } }
                let otherRead = onNewThread { _ = readBlocking(running) }
                waitUntil { waitingReaders(of: running) == 2 }
                let entry = FutureDiagnostics.waitingFutures().first { $0.creationSite == running._creationSite }
                precondition(entry?.isAwaitedByMainThread == true, "the main thread should be among the readers")
                writeLine("running: \(running._creationSite)")
                writeLine("queued: \(queued._creationSite)")
                FutureDiagnostics.printWaitingFutures()
                FutureDiagnostics.printWaitingFutures(limit: 1)
                gate.open()
                readBlocking(mainRead)
                readBlocking(otherRead)
                precondition(readBlocking(blocker) == 1 && readBlocking(queued) == 3)
                FutureDiagnostics.printWaitingFutures()  // nothing any more
            }
            let lines = outputLines(exit)
            let running = value(after: "running: ", in: lines)
            let queued = value(after: "queued: ", in: lines)
            let errors = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
            let nothing = "Futures: no future is waited for or queued\n"
            let waiting =
                "  BackgroundFuture<Int> created at \(running), running; 2 threads wait for it: the main thread\n"
            let queuedLine = "  BackgroundFuture<Int> created at \(queued), pending, queued on ft-snapshot-print\n"
            #expect(
                errors
                    == nothing
                    + "Futures waiting: 2\n" + waiting + queuedLine
                    + "Futures waiting: 2\n" + waiting + "  … and 1 more\n"
                    + nothing)
        }
    #endif
}

/// A background future on `context` whose work runs (it is not queued, so a reader cannot claim
/// it and run it itself) and returns 1 once `gate` opens.
private func runningFuture(_ gate: Gate, on context: ExecutionContext = .global()) -> Future<Int, Never> {
    let started = DispatchSemaphore(value: 0)
    let future = BackgroundFuture(on: context) { () -> Int in
        started.signal()
        gate.wait()
        return 1
    }
    started.wait()
    return future
}

/// The snapshot's entries for `future`'s creation site.
private func entries(of future: _FutureCore) -> [FutureDiagnostics.WaitingFuture] {
    FutureDiagnostics.waitingFutures().filter { $0.creationSite == future._creationSite }
}

/// Looks at the snapshot again and again until the entry for `future`'s creation site satisfies
/// `condition` (threads take a moment to park), and returns that entry; `nil` after a generous
/// limit, which fails the test instead of hanging it.
private func waitForEntry(
    of future: _FutureCore, _ condition: (FutureDiagnostics.WaitingFuture) -> Bool
) -> FutureDiagnostics.WaitingFuture? {
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
        if let entry = entries(of: future).first(where: condition) { return entry }
        pauseBriefly()
    }
    return nil
}
