import Foundation
import Testing

@testable import Futures

/// Wait cycles: threads that wait for futures whose work waits back for them. The last thread of
/// a cycle to wait traps with a message that says "cycle" and names every future of it, in order,
/// with its kind and creation site; waits that end on their own (a deadline, a promise someone
/// may complete, a future that can resolve from another source) are never reported.
@Suite("wait cycles: traps that name the cycle, and no false alarms")
struct WaitCycleTests {
    /// Rings of 2, 3 and 5 futures, mixing background futures on the global context and on a
    /// context of the test's own threads, lazy futures run by threads of their own, agents'
    /// pinned futures, and derived futures: maps (lazy ones, of lazy futures) and flatMaps of
    /// promises completed with the next future.
    static let rings: [WaitRing.Spec] = [
        WaitRing.Spec([(.global, .direct), (.global, .direct)]),
        WaitRing.Spec([(.global, .direct), (.pool, .direct)]),
        WaitRing.Spec([(.lazy, .direct), (.global, .direct)]),
        // The report: two on threads of their own, one on the global context.
        WaitRing.Spec([(.lazy, .direct), (.lazy, .direct), (.global, .direct)]),
        WaitRing.Spec([(.lazy, .map), (.global, .direct)]),
        WaitRing.Spec([(.pool, .promise), (.lazy, .direct)]),
        WaitRing.Spec([(.agent, .direct), (.global, .map)]),
        WaitRing.Spec([(.global, .direct), (.lazy, .map), (.pool, .direct), (.agent, .direct)]),
        WaitRing.Spec([(.global, .promise), (.lazy, .direct), (.pool, .map)]),
        WaitRing.Spec([(.global, .direct), (.global, .direct), (.lazy, .direct), (.pool, .direct), (.global, .direct)]),
        WaitRing.Spec([(.pool, .map), (.pool, .promise), (.lazy, .map)]),
    ]

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("a cycle across threads traps, naming every future in order", arguments: rings)
        func crossThreadCycle(spec: WaitRing.Spec) async {
            #expect([2, 3, 5, 6].contains(spec.cycleLength))
            let exit = await #expect(
                processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent]
            ) { [spec] in
                exitIfNotTrapped(within: .seconds(240))
                let ring = WaitRing(spec)
                ring.printCycleNames()
                ring.close()
                _ = readBlocking(ring.works[0])  // this thread waits for the cycle too
            }
            expectCycleReported(exit, length: spec.cycleLength)
        }
    #endif

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("a cycle that the main thread waits for traps, naming the cycle")
        func cycleAwaitedByTheMainThread() async {
            let exit = await #expect(
                processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent]
            ) {
                exitIfNotTrapped(within: .seconds(240))
                let ring = WaitRing(WaitRing.Spec([(.lazy, .direct), (.lazy, .direct), (.global, .direct)]))
                ring.printCycleNames()
                ring.close()
                asTheMainThread { _ = readBlocking(ring.works[0]) }
            }
            expectCycleReported(exit, length: 3)
        }
    #endif

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("a cycle in which work runs on the main thread says so")
        func cycleThroughTheMainThread() async {
            let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                exitIfNotTrapped(within: .seconds(240))
                // No main-thread wait report: its wake-up would take the main thread out of the wait
                // table for a moment, and the background thread could then look, find no cycle, park,
                // and leave the main thread to find the cycle, from the other end.
                FutureDiagnostics.mainThreadWaitThreshold = .seconds(86_400)
                let started = Signal()
                let box = LockedBox<(main: Future<Int, Never>?, other: Future<Int, Never>?)>((nil, nil))
                let onMain = LazyFuture { () -> Int in
                    let other = BackgroundFuture { () -> Int in
                        started.send()
                        waitUntil { box.withLock { $0.other } != nil }
                        let (main, other) = box.withLock { ($0.main!, $0.other!) }
                        waitUntil { waitingReaders(of: other) == 1 }  // the main thread's work waits first
                        return readBlocking(main) + 1
                    }
                    box.withLock { $0.other = other }
                    _ = started.wait()  // running on its own thread: this one will not run it
                    return readBlocking(other) + 1
                }
                box.withLock { $0.main = onMain }
                asTheMainThread { _ = readBlocking(onMain) }
            }
            let errors = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
            #expect(errors.contains("wait cycle of 2 futures"))
            #expect(errors.contains("LazyFuture<Int> created at FuturesTests/WaitCycleTests.swift:"))
            #expect(errors.contains("BackgroundFuture<Int> created at FuturesTests/WaitCycleTests.swift:"))
            // The background future's thread parks last (it starts reading once the main thread's work
            // waits for it), so the main thread's work is the one on a parked thread.
            #expect(errors.contains("whose work, on the main thread, waits for"))
        }
    #endif

    // MARK: One thread's cycles keep the recursion message and name the cycle

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("a future read from inside its own work keeps its message, with no cycle to name")
        func directRecursionKeepsItsMessage() async {
            let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let box = LockedBox<Future<Int, Never>?>(nil)
                let future = LazyFuture { readBlocking(box.withLock { $0 }!) + 1 }
                box.withLock { $0 = future }
                _ = readBlocking(future)
            }
            let errors = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
            #expect(errors.contains("LazyFuture<Int> created at FuturesTests/WaitCycleTests.swift:"))
            #expect(errors.contains("was read from inside its own work"))
            #expect(!errors.contains("cycle"))
        }
    #endif

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("a cycle run on one thread keeps the recursion message and names each future of the cycle")
        func oneThreadCycleNamesTheCycle() async {
            let exit = await #expect(
                processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent]
            ) {
                // first reads second (queued: this thread claims it and runs it), second reads third
                // (lazy: run here too), third reads first: all three on this thread.
                let box = LockedBox<Future<Int, Never>?>(nil)
                let third = LazyFuture { readBlocking(box.withLock { $0 }!) + 1 }
                let held = HeldContext()
                let second = BackgroundFuture(on: held.context) { readBlocking(third) + 1 }
                let first = LazyFuture { readBlocking(second) + 1 }
                box.withLock { $0 = first }
                var text = ""
                for future in [first, second, third] as [_FutureCore] {
                    text += "cycle member: \(WaitCycle.name(future))\n"
                }
                FileHandle.standardOutput.write(Data(text.utf8))
                _ = readBlocking(first)
            }
            let errors = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
            #expect(errors.contains("was read from inside its own work"))
            #expect(errors.contains("whose work, on this thread, waits for"))
            expectCycleReported(exit, length: 3)
        }
    #endif

    // MARK: No false alarms

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("a timed read is not a link of a cycle: it ends on its own")
        func timedReadsAreNotLinks() async {
            await #expect(processExitsWith: .success) {
                exitIfNotTrapped(within: .seconds(240), status: EXIT_FAILURE)
                let started = Signal()  // not DispatchSemaphore: its wait() is noasync on Apple platforms
                let gate = Gate()
                let box = LockedBox<Future<Int, any Error>?>(nil)
                let first = BackgroundFuture { () throws -> Int in
                    started.send()
                    gate.wait()
                    // Waits for `second`, which waits for this one: but with a deadline.
                    return try box.withLock { $0 }!.result(timeout: .seconds(3_600))!.get() + 1
                }
                let second = BackgroundFuture { () throws -> Int in
                    started.send()
                    gate.wait()
                    return try first.result.get() + 1
                }
                box.withLock { $0 = second }
                precondition(started.wait(), "the work did not start")
                precondition(started.wait(), "the work did not start")
                gate.open()
                // Both threads park (one without a deadline), and nothing traps; then a cancel ends it.
                waitUntil { waitingReaders(of: first) == 1 && waitingReaders(of: second) == 1 }
                second.cancel()
                precondition((try? first.result.get()) == nil, "first should see second cancelled")
            }
        }
    #endif

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("a wait for a pending promise is never part of a cycle, even when the one who would complete it waits")
        func pendingPromisesEndTheSearch() async {
            await #expect(processExitsWith: .success) {
                exitIfNotTrapped(within: .seconds(240), status: EXIT_FAILURE)
                // A waits for the promise, B waits for A and would complete the promise after: a real
                // deadlock, but nothing tells Futures that B is the one who completes the promise.
                let promise = Promise<Int, Never>()
                let started = Signal()  // not DispatchSemaphore: its wait() is noasync on Apple platforms
                let first = BackgroundFuture { () -> Int in
                    started.send()
                    return readBlocking(promise.future) + 1
                }
                // `first` runs on a thread of its own before `second` reads it: otherwise `second`'s
                // thread could claim it and run it itself, and nothing would wait for `first`.
                precondition(started.wait(), "the work did not start")
                let second = BackgroundFuture { () -> Int in
                    let value = readBlocking(first)
                    promise.succeed(0)
                    return value + 1
                }
                waitUntil { waitingReaders(of: promise.future) == 1 && waitingReaders(of: first) == 1 }
                promise.succeed(1)
                precondition(readBlocking(second) == 3)
            }
        }
    #endif

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("a derived future with several sources ends the search: another source may resolve it")
        func severalSourcesEndTheSearch() async {
            await #expect(processExitsWith: .success) {
                exitIfNotTrapped(within: .seconds(240), status: EXIT_FAILURE)
                let started = Signal()  // not DispatchSemaphore: its wait() is noasync on Apple platforms
                let gate = Gate()
                let promise = Promise<Int, Never>()
                let box = LockedBox<Future<Int, Never>?>(nil)
                // first waits for first(of: [second, promise]); second waits for first.
                let first = BackgroundFuture { () -> Int in
                    started.send()
                    gate.wait()
                    return readBlocking(Future.first(of: [box.withLock { $0 }!, promise.future])) + 1
                }
                let second = BackgroundFuture { () -> Int in
                    started.send()
                    gate.wait()
                    return readBlocking(first) + 1
                }
                box.withLock { $0 = second }
                precondition(started.wait(), "the work did not start")
                precondition(started.wait(), "the work did not start")
                gate.open()
                waitUntil { waitingReaders(of: first) == 1 && WaitRegistry.parkedThreads().count >= 2 }
                promise.succeed(10)
                precondition(readBlocking(second) == 12)
            }
        }
    #endif

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there
        @Test("an exit test's child that runs out of time writes a hang dump before it exits")
        func aChildOutOfTimeWritesAHangDump() async {
            let exit = await #expect(processExitsWith: .failure, observing: [\.standardOutputContent]) {
                childThatRunsOutOfTime()
            }
            let lines = outputLines(exit)
            #expect(lines.contains { $0.hasPrefix("=== hang dump of process ") })
            #expect(lines.contains { $0.hasPrefix("pool ") })
            #expect(lines.contains("=== end of hang dump ==="))
        }
    #endif

    @Test("work that waits for work on another thread that is not waiting is no cycle")
    func busyRunnersEndTheSearch() {
        // Many threads wait for futures whose work runs (and itself waits) elsewhere: chains,
        // never cycles. Nothing traps, and every registration is gone afterwards.
        for _ in 0..<50 {
            let gate = Gate()
            let root = BackgroundFuture { () -> Int in
                gate.wait()
                return 1
            }
            let middle = (0..<4).map { index in BackgroundFuture { readBlocking(root) + index } }
            let top = BackgroundFuture { middle.reduce(0) { $0 + readBlocking($1) } }
            let derived = top.map { $0 * 2 }
            let readers: [Future<Void, Never>] = (0..<3).map { _ in onNewThread { _ = readBlocking(derived) } }
            gate.open()
            #expect(readBlocking(derived) == 2 * (4 + 0 + 1 + 2 + 3))
            for reader in readers { readBlocking(reader) }
        }
        waitUntil { WaitRegistry.parkedThreads().allSatisfy { !$0.future.isFromWaitCycleTests } }
    }
}

extension _FutureCore {
    /// Whether the future was made in this file.
    var isFromWaitCycleTests: Bool { _creationSite.hasPrefix("FuturesTests/WaitCycleTests.swift") }
}

/// Runs `body` on a thread of its own that Futures takes for the main thread (under `swift test`
/// on Linux no test code runs on the process's main thread), and returns when it returns.
func asTheMainThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        let me = UInt(bitPattern: ObjectIdentifier(ThreadState.current))
        MainThread.standIn.store(me, ordering: .relaxed)
        body()
        // Given up before `done`, and only if still ours. A `defer` gave it up after `done`: the
        // caller could start the next stand-in first, whose mark this thread then erased, and
        // that reader was no main thread any more. A test that waited for its long-wait report
        // then waited for ever (the exit-test child of DiagnosticsReportTests that ran out of
        // time once in about a dozen ThreadSanitizer runs with busy cores).
        _ = MainThread.standIn.compareExchange(expected: me, desired: 0, ordering: .relaxed)
        done.signal()
    }
    done.wait()
}

/// How many threads are parked reading `future` now.
func waitingReaders(of future: _FutureCore) -> Int {
    WaitRegistry.parkedThreads().filter { $0.future === future }.count
}

/// Waits, looking again and again, until `condition` holds; gives up after a generous limit so
/// that a broken engine fails the test instead of hanging it (never a timing assertion).
func waitUntil(limit: Duration = .seconds(60), _ condition: () -> Bool) {
    let limit = hangLimit(limit)
    let deadline = ContinuousClock.now + limit
    while !condition() {
        precondition(ContinuousClock.now < deadline, "the condition did not hold within \(limit)")
        pauseBriefly()
    }
}

/// In an exit test's child process: ends the process with `status` if it is still running after
/// `limit`, so that a cycle that is not reported fails the test instead of hanging it (with
/// `EXIT_SUCCESS`, where the test expects a trap) or a test that should end does not (with
/// `EXIT_FAILURE`).
func exitIfNotTrapped(within limit: Duration, status: Int32 = EXIT_SUCCESS) {
    Thread.detachNewThread {
        let never = DispatchSemaphore(value: 0)
        _ = never.wait(timeout: .now() + limit.dispatchInterval)
        FileHandle.standardError.write(Data("the process was still running after \(limit)\n".utf8))
        if status != EXIT_SUCCESS { writeHangDump(after: limit, waitingAtMost: .seconds(120)) }
        exit(status)
    }
}

/// Writes the test process's hang dump (`HangDump`: the futures waited for, the pools' state, and
/// every thread's backtrace through gdb) to standard output, which an exit test's parent observes,
/// and to a file in the folder `FUTURES_HANG_DUMP_DIR` names, if set (`scripts/soak` sets it to its
/// logs' folder): a child that ran out of time in a soak once wrote nothing, and its state was
/// lost. On a thread of its own, given `dumpLimit`: a child stuck on a pool's lock must still exit.
private func writeHangDump(after limit: Duration, waitingAtMost dumpLimit: Duration) {
    let written = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        let text = HangDump.text(reason: "an exit test's child was still running after \(limit)")
        FileHandle.standardOutput.write(Data(text.utf8))
        if let folder = ProcessInfo.processInfo.environment["FUTURES_HANG_DUMP_DIR"] {
            let file = URL(fileURLWithPath: folder).appendingPathComponent("exit-test-timeout-\(getpid()).txt")
            if (try? Data(text.utf8).write(to: file)) != nil {
                FileHandle.standardError.write(Data("hang dump written to \(file.path)\n".utf8))
            }
        }
        written.signal()
    }
    _ = written.wait(timeout: .now() + dumpLimit.dispatchInterval)
}

/// An exit test's child that runs a background future, so that a pool exists, then runs out of its
/// time limit (synchronous: an asynchronous exit test's body cannot wait on a semaphore on Apple
/// platforms). Without gdb's backtraces, which take seconds, and without a file in a soak's logs,
/// which would read as a real time-out there.
private func childThatRunsOutOfTime() {
    setenv("FUTURES_HANG_BACKTRACES", "0", 1)
    unsetenv("FUTURES_HANG_DUMP_DIR")
    let ran = DispatchSemaphore(value: 0)
    _ = BackgroundFuture { ran.signal() }
    ran.wait()
    exitIfNotTrapped(within: .milliseconds(200), status: EXIT_FAILURE)
    let never = DispatchSemaphore(value: 0)
    never.wait()
}
