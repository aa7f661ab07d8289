import Foundation
import Synchronization
import Testing

@testable import Futures

/// The reports of debug builds, through `FutureDiagnostics.handler`: promises dropped while their
/// future is pending, and blocking reads on the main thread that wait too long.
///
/// The handler, the threshold and the main thread's stand-in are global to the process. The
/// dropped-promise tests run here, one at a time (`.serialized`), each with a handler of its own
/// (`ReportCollector`) that keeps the reports of this file's creation sites and passes the others
/// on (other suites drop promises too), and that puts the previous handler back when the test
/// ends; each test looks only at the reports of its own promise's creation site. The main-thread
/// tests run in exit tests: the sites already reported, the threshold and the stand-in then belong
/// to one test alone.
@Suite(
    "diagnostic reports: dropped promises, long main-thread waits and blocking reads on the cooperative pool",
    .serialized,
    .enabled(if: FutureDiagnostics.reportsProblems, "release builds make no reports"))
struct DiagnosticsReportTests {
    // MARK: Dropped promises

    @Test("a promise dropped pending is reported once, with its type and creation site; its future stays pending")
    func droppedPromiseIsReported() throws {
        let reports = ReportCollector()
        defer { reports.restore() }
        let future: Future<Int, ParseError>
        do {
            let promise = Promise<Int, ParseError>()
            let copies = [promise, promise, promise]  // copies of one promise: one report
            future = copies[0].future
        }
        let site = future._creationSite
        #expect(site.hasPrefix("FuturesTests/DiagnosticsReportTests.swift:"))
        let found = reports.reports(from: site)
        try #require(found.count == 1)
        #expect(found[0].problem == .promiseDroppedWhilePending)
        #expect(found[0].future == "Promise<Int, ParseError>")
        #expect(found[0].creationSite == site)
        #expect(
            found[0].description.hasPrefix(
                "Promise<Int, ParseError> created at \(site) was dropped without being completed"))
        #expect(found[0].description.contains("Complete every promise"))
        // Futures does not fail the future: it stays pending, as in a release build.
        #expect(future.peek == nil)
        #expect(!future.isResolved)
        #expect(future.result(timeout: .milliseconds(1)) == nil)
    }

    @Test("a completed promise is not reported when dropped", arguments: [true, false])
    func completedPromiseIsNotReported(succeeds: Bool) throws {
        let reports = ReportCollector()
        defer { reports.restore() }
        let future: Future<Int, ParseError>
        do {
            let promise = Promise<Int, ParseError>()
            future = promise.future
            if succeeds { promise.succeed(1) } else { promise.fail(.empty) }
        }
        #expect(reports.reports(from: future._creationSite).isEmpty)
        #expect(future.isResolved)
    }

    @Test("a promise dropped with its future is not reported: nothing could wait for it")
    func promiseDroppedWithItsFutureIsNotReported() {
        let reports = ReportCollector()
        defer { reports.restore() }
        let site: String
        do {
            let promise = Promise<Int, Never>()
            site = promise.future._creationSite
        }
        #expect(site.hasPrefix("FuturesTests/DiagnosticsReportTests.swift:"))
        #expect(reports.reports(from: site).isEmpty)
    }

    @Test("a callback on the future, or a future derived from it, is something that waits: reported")
    func callbacksAndDerivedFuturesCount() throws {
        let reports = ReportCollector()
        defer { reports.restore() }
        let calls = CallCounter()
        let callbackSite: String
        do {
            let promise = Promise<Int, Never>()
            callbackSite = promise.future._creationSite
            promise.future.onComplete { _ in calls.increment() }
        }
        let derived: Future<Int, Never>
        let derivedSite: String
        do {
            let promise = Promise<Int, Never>()
            derivedSite = promise.future._creationSite
            derived = promise.future.map { $0 + 1 }
        }
        #expect(reports.reports(from: callbackSite).map(\.problem) == [.promiseDroppedWhilePending])
        #expect(reports.reports(from: derivedSite).map(\.problem) == [.promiseDroppedWhilePending])
        #expect(calls.value == 0)
        #expect(derived.peek == nil)
    }

    @Test("a completion that loses to a racing cancel, then drops the last copy, is not reported")
    func completionLosingToCancelIsNotReported() {
        let reports = ReportCollector()
        defer { reports.restore() }
        let threads = RacingThreads(count: 2)
        defer { threads.stop() }
        var site = ""
        var completionsLost = 0
        let delay = Atomic<Int>(0)
        for round in 0..<20_000 {
            let held = Locked<Promise<Int, any Error>?>(nil)
            let future: Future<Int, any Error>
            do {
                let promise = Promise<Int, any Error>()
                future = promise.future
                held.withLock { $0 = promise }
            }
            site = future._creationSite
            let completed = Locked(false)
            threads.race { index in
                if index == 0 {
                    // Starts a little later each round (0 to 63 atomic adds), to sweep the moment of
                    // the completion across the cancel's few instructions between winning and
                    // publishing.
                    for _ in 0..<(round % 64) { delay.add(1, ordering: .relaxed) }
                    // The only copy of the promise: it goes as this closure returns, right after
                    // its completion, which may lose to the cancel still publishing.
                    let promise = held.withLock { held in
                        defer { held = nil }
                        return held
                    }
                    if promise?.succeed(1) == true { completed.withLock { $0 = true } }
                } else {
                    future.cancel()
                }
            }
            if !completed.withLock({ $0 }) { completionsLost += 1 }
            #expect(future.isResolved)
        }
        #expect(site.hasPrefix("FuturesTests/DiagnosticsReportTests.swift:"))
        #expect(reports.reports(from: site).count == 0, "completions lost to the cancel: \(completionsLost)")
    }

    @Test("a promise and a map of it, both dropped pending, are still reported once, and both are freed")
    func promiseAndMapDroppedPendingAreReportedAndFreed() throws {
        let reports = ReportCollector()
        defer { reports.restore() }
        let site: String
        let watched: [WeakBox<_FutureCore>]
        do {
            let promise = Promise<Int, Never>()
            site = promise.future._creationSite
            let mapped = promise.future.map { $0 + 1 }
            watched = [WeakBox(promise.future), WeakBox(mapped)]
        }
        #expect(reports.reports(from: site).map(\.problem) == [.promiseDroppedWhilePending])
        #expect(watched.allSatisfy { $0.isReleased })
    }

    @Test("a promise dropped on another thread is reported on that thread")
    func promiseDroppedOnAnotherThread() throws {
        let reports = ReportCollector()
        defer { reports.restore() }
        let held = Locked<Promise<String, any Error>?>(nil)
        let future: Future<String, any Error>
        do {
            let promise = Promise<String, any Error>()
            future = promise.future
            held.withLock { $0 = promise }
        }
        #expect(reports.reports(from: future._creationSite).isEmpty)  // the other thread holds it
        let dropper = Locked<UInt>(0)
        readBlocking(
            onNewThread {
                dropper.withLock { $0 = currentThreadID() }
                held.withLock { $0 = nil }  // the last copy goes here
            })
        let found = reports.delivered(from: future._creationSite)
        try #require(found.count == 1)
        #expect(found[0].report.future == "Promise<String, any Error>")
        #expect(found[0].thread == dropper.withLock { $0 })
        #expect(found[0].thread != currentThreadID())
        #expect(future.peek == nil)
    }

    // MARK: Long waits on the main thread

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("a long blocking read on the main thread is reported once per creation site, even when read twice")
        func mainThreadWaitIsReportedOncePerSite() async {
            let exit = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                exitIfNotTrapped(within: .seconds(240), status: EXIT_FAILURE)
                FutureDiagnostics.mainThreadWaitThreshold = .milliseconds(20)
                let reported = DispatchSemaphore(value: 0)
                FutureDiagnostics.handler = { report in
                    writeLine("report: \(report.problem) | \(report.future) | \(report.creationSite)")
                    writeLine("text: \(report.description)")
                    if report.problem == .mainThreadWait { reported.signal() }
                }
                // Two futures made at one site (in `startedFuture`), and one made at another.
                let gates = [Gate(), Gate(), Gate()]
                let first = startedFuture(gates[0])
                let second = startedFuture(gates[1])
                let third = BackgroundFuture { () -> Int in
                    gates[2].wait()
                    return 3
                }
                writeLine("repeated site: \(first._creationSite)")
                writeLine("other site: \(third._creationSite)")
                // The first read waits until it has been reported.
                Thread.detachNewThread {
                    reported.wait()
                    gates[0].open()
                }
                asTheMainThread { _ = readBlocking(first) }
                // The second, from the same site, waits many thresholds (only so that a report would
                // be due: nothing is timed), and is not reported again.
                Thread.detachNewThread {
                    waitUntil { waitingReaders(of: second) == 1 }
                    let parked = ContinuousClock.now
                    waitUntil { ContinuousClock.now - parked > .milliseconds(400) }
                    gates[1].open()
                }
                asTheMainThread { _ = readBlocking(second) }
                // Another site is reported as the first was.
                Thread.detachNewThread {
                    reported.wait()
                    gates[2].open()
                }
                asTheMainThread { _ = readBlocking(third) }
            }
            let lines = outputLines(exit)
            let repeated = value(after: "repeated site: ", in: lines)
            let other = value(after: "other site: ", in: lines)
            #expect(repeated.hasPrefix("FuturesTests/DiagnosticsReportTests.swift:"))
            #expect(
                lines.filter { $0.hasPrefix("report: ") } == [
                    "report: mainThreadWait | BackgroundFuture<Int> | \(repeated)",
                    "report: mainThreadWait | BackgroundFuture<Int> | \(other)",
                ])
            let text = value(after: "text: ", in: lines)
            #expect(text.hasPrefix("the main thread has waited "))
            #expect(text.contains("for BackgroundFuture<Int> created at \(repeated), and still waits"))
            #expect(text.contains("reported once for this creation site"))
        }
    #endif

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("a main-thread read that resolves before the threshold is not reported")
        func shortMainThreadWaitIsNotReported() async {
            let exit = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                exitIfNotTrapped(within: .seconds(240), status: EXIT_FAILURE)
                // Far longer than the read can take, even on a slow machine.
                FutureDiagnostics.mainThreadWaitThreshold = .seconds(3_600)
                FutureDiagnostics.handler = { report in
                    writeLine("report: \(report.problem) | \(report.creationSite)")
                }
                let gate = Gate()
                let future = startedFuture(gate)
                Thread.detachNewThread {
                    waitUntil { waitingReaders(of: future) == 1 }
                    gate.open()
                }
                asTheMainThread { _ = readBlocking(future) }
                writeLine("read: \(future.peek.map { "\($0)" } ?? "pending")")
            }
            let lines = outputLines(exit)
            #expect(lines.contains("read: success(1)"))
            #expect(!lines.contains { $0.hasPrefix("report: ") })
        }
    #endif

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("a long blocking read off the main thread is not reported")
        func longWaitOffTheMainThreadIsNotReported() async {
            let exit = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                exitIfNotTrapped(within: .seconds(240), status: EXIT_FAILURE)
                FutureDiagnostics.mainThreadWaitThreshold = .milliseconds(20)
                FutureDiagnostics.handler = { report in
                    writeLine("report: \(report.problem) | \(report.creationSite)")
                }
                let gate = Gate()
                let future = startedFuture(gate)
                Thread.detachNewThread {
                    waitUntil { waitingReaders(of: future) == 1 }
                    let parked = ContinuousClock.now
                    waitUntil { ContinuousClock.now - parked > .milliseconds(400) }
                    gate.open()
                }
                // A plain thread's read: neither the main thread nor one of Swift's cooperative
                // pool (this body runs on one, so it awaits the thread instead of reading).
                await onNewThread { _ = readBlocking(future) }.get()
                writeLine("read: \(future.peek.map { "\($0)" } ?? "pending")")
            }
            let lines = outputLines(exit)
            #expect(lines.contains("read: success(1)"))
            #expect(!lines.contains { $0.hasPrefix("report: ") })
        }
    #endif

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("a main-thread read that runs slow work itself is reported once per creation site, after the work")
        func mainThreadRunningWorkItselfIsReported() async {
            let exit = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                exitIfNotTrapped(within: .seconds(240), status: EXIT_FAILURE)
                FutureDiagnostics.mainThreadWaitThreshold = .milliseconds(20)
                FutureDiagnostics.handler = { report in
                    writeLine("report: \(report.problem) | \(report.future) | \(report.creationSite)")
                    writeLine("text: \(report.description)")
                }
                // The work runs on the reading thread (a lazy future) for many thresholds (only so
                // that a report is due: nothing is timed), twice from one site.
                let slowWork = { @Sendable () -> LazyFuture<Int, Never> in
                    LazyFuture {
                        let start = ContinuousClock.now
                        waitUntil { ContinuousClock.now - start > .milliseconds(200) }
                        return 2
                    }
                }
                let first = slowWork()
                writeLine("site: \(first._creationSite)")
                asTheMainThread { writeLine("read: \(readBlocking(first))") }
                asTheMainThread { writeLine("read: \(readBlocking(slowWork()))") }
                // Quick work is not reported.
                asTheMainThread { writeLine("read: \(readBlocking(LazyFuture { 3 }))") }
            }
            let lines = outputLines(exit)
            let site = value(after: "site: ", in: lines)
            #expect(lines.filter { $0.hasPrefix("read: ") } == ["read: 2", "read: 2", "read: 3"])
            #expect(lines.filter { $0.hasPrefix("report: ") } == ["report: mainThreadWait | LazyFuture<Int> | \(site)"])
            let text = value(after: "text: ", in: lines)
            #expect(text.hasPrefix("the main thread spent "))
            #expect(text.contains("running the work of LazyFuture<Int> created at \(site) itself"))
        }

        @Test("a task's synchronous read that runs slow unstarted work itself is reported once per creation site")
        func cooperativeThreadRunningWorkItselfIsReported() async {
            let exit = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                exitIfNotTrapped(within: .seconds(240), status: EXIT_FAILURE)
                FutureDiagnostics.mainThreadWaitThreshold = .milliseconds(20)
                FutureDiagnostics.handler = { report in
                    writeLine("report: \(report.problem) | \(report.future) | \(report.creationSite)")
                    writeLine("text: \(report.description)")
                }
                // A context that never runs its work: the work is unstarted when the task reads it,
                // and the reader runs it itself, for many thresholds, twice from one site.
                let neverRuns = ExecutionContext { _ in }
                let slowWork = { @Sendable () -> BackgroundFuture<Int, Never> in
                    BackgroundFuture(on: neverRuns) {
                        let start = ContinuousClock.now
                        waitUntil { ContinuousClock.now - start > .milliseconds(200) }
                        return 2
                    }
                }
                let first = slowWork()
                writeLine("site: \(first._creationSite)")
                writeLine("read: \(await Task { readBlocking(first) }.value)")
                writeLine("read: \(await Task { readBlocking(slowWork()) }.value)")
                // Quick work is not reported.
                writeLine("read: \(await Task { readBlocking(BackgroundFuture(on: neverRuns) { 3 }) }.value)")
            }
            let lines = outputLines(exit)
            let site = value(after: "site: ", in: lines)
            #expect(lines.filter { $0.hasPrefix("read: ") } == ["read: 2", "read: 2", "read: 3"])
            #expect(
                lines.filter { $0.hasPrefix("report: ") } == [
                    "report: blockingReadOnCooperativeThread | BackgroundFuture<Int> | \(site)"
                ])
            let text = value(after: "text: ", in: lines)
            #expect(text.hasPrefix("a blocking read on a thread of Swift's cooperative pool spent "))
            #expect(text.contains("running the work of BackgroundFuture<Int> created at \(site) itself"))
        }

        @Test("a main-thread read of a promise says that what completes it must not need the main thread")
        func mainThreadWaitForAPromiseNamesTheDeadlock() async {
            let exit = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                exitIfNotTrapped(within: .seconds(240), status: EXIT_FAILURE)
                FutureDiagnostics.mainThreadWaitThreshold = .milliseconds(20)
                let reported = DispatchSemaphore(value: 0)
                FutureDiagnostics.handler = { report in
                    writeLine("report: \(report.problem) | \(report.future)")
                    writeLine("text: \(report.description)")
                    reported.signal()
                }
                let promise = Promise<Int, Never>()
                Thread.detachNewThread {
                    reported.wait()
                    promise.succeed(4)
                }
                asTheMainThread { writeLine("read: \(readBlocking(promise.future))") }
            }
            let lines = outputLines(exit)
            #expect(lines.contains("read: 4"))
            #expect(lines.filter { $0.hasPrefix("report: ") } == ["report: mainThreadWait | Future<Int> (promise)"])
            let text = value(after: "text: ", in: lines)
            #expect(text.contains("If what would resolve it needs the main thread (main-actor code such as a Task"))
            #expect(text.contains("it never will while the main thread waits: a deadlock"))
        }
    #endif
}

/// Replaces `FutureDiagnostics.handler` for one test: keeps the reports about futures made in
/// this file, with the thread each came on, and hands the others to the handler it replaced,
/// which `restore()` puts back.
final class ReportCollector: Sendable {
    struct Delivered: Sendable {
        let report: FutureDiagnostics.Report
        let thread: UInt
    }

    private let previous: @Sendable (FutureDiagnostics.Report) -> Void
    private let kept = Locked<[Delivered]>([])

    init() {
        let previous = FutureDiagnostics.handler
        self.previous = previous
        FutureDiagnostics.handler = { [kept] report in
            guard report.creationSite.hasPrefix("FuturesTests/DiagnosticsReportTests.swift:") else {
                return previous(report)
            }
            kept.withLock { $0.append(Delivered(report: report, thread: currentThreadID())) }
        }
    }

    /// Puts back the handler this one replaced.
    func restore() {
        FutureDiagnostics.handler = previous
    }

    /// The reports about the future or promise made at `site`, in order, with their threads.
    func delivered(from site: String) -> [Delivered] {
        kept.withLock { $0.filter { $0.report.creationSite == site } }
    }

    /// The reports about the future or promise made at `site`, in order.
    func reports(from site: String) -> [FutureDiagnostics.Report] {
        delivered(from: site).map(\.report)
    }
}

/// A background future whose work runs (it is not queued, so a reader cannot claim it) and
/// returns 1 once `gate` opens. Every future it makes has one creation site: this line's.
private func startedFuture(_ gate: Gate) -> Future<Int, Never> {
    let started = DispatchSemaphore(value: 0)
    let future = BackgroundFuture { () -> Int in
        started.signal()
        gate.wait()
        return 1
    }
    started.wait()
    return future
}

/// Writes `text` and a new line to standard output, unbuffered: what an exit test's child tells
/// its parent.
func writeLine(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

/// The lines an exit test's child wrote to standard output.
func outputLines(_ exit: ExitTest.Result?) -> [String] {
    String(decoding: exit?.standardOutputContent ?? [], as: UTF8.self).split(separator: "\n").map(String.init)
}

/// What follows `prefix` on the first line that starts with it, or "" if none does.
func value(after prefix: String, in lines: [String]) -> String {
    lines.first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) } ?? ""
}
