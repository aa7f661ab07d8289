import Foundation
import Synchronization
import TestProcessHooks

@testable import Futures

/// What the test process does as it starts (`TestProcessHooks.c` calls it, on a plain thread,
/// before the tests run): it installs the hang dump on SIGUSR1, and starts the narrow-pool mode
/// if asked for. See docs/testing.md.
@_cdecl("futures_tests_process_started")
func testProcessStarted() {
    HangDump.installSignalHandler()
    if NarrowPool.isOn { NarrowPool.start() }
}

/// Called before `main` (`TestProcessHooks.c`), unless `FUTURES_TEST_PRINT_REPORTS=1`: the debug
/// reports that tests provoke on purpose (hundreds of promises dropped pending, in the memory and
/// fuzzer tests) are counted instead of printed, so that a passing run does not print lines that
/// look like failures. Tests that check reports install their own handler (`ReportCollector`, or
/// one per exit test), which sees every report of its own sites first.
@_cdecl("futures_tests_collect_reports")
func collectReports() {
    FutureDiagnostics.handler = { report in CollectedReports.record(report) }
}

/// The reports collected by the test process's default handler, by problem.
enum CollectedReports {
    private static let counts = Locked<[FutureDiagnostics.Report.Problem: Int]>([:])

    static func record(_ report: FutureDiagnostics.Report) {
        counts.withLock { $0[report.problem, default: 0] += 1 }
    }

    /// "promiseDroppedWhilePending 1102, …", or "none".
    static var summary: String {
        let counts = counts.withLock { $0 }
        guard !counts.isEmpty else { return "none" }
        return counts.map { "\($0.key) \($0.value)" }.sorted().joined(separator: ", ")
    }
}

/// The narrow-pool mode of the test process (`FUTURES_TEST_NARROW_POOL=1`, see docs/testing.md):
/// every thread of Swift's cooperative pool but one is held, for the whole run, by a task blocked
/// at a gate that never opens.
///
/// Swift Testing runs tests in parallel on the cooperative pool, which has one thread per core
/// and never adds one when they block (two threads here). A test that blocks a cooperative
/// thread while it waits for a task of its own, or that needs every pool thread at once, hangs
/// when its neighbours hold the other threads: rarely, in a normal run. In this mode it hangs
/// every time, so the mode is both the reproduction of that hang and the check that no test
/// depends on having the pool to itself.
enum NarrowPool {
    /// How many cooperative threads the mode holds; 0 when it is off.
    static let heldThreads = Atomic<Int>(0)

    static var isOn: Bool { futures_tests_narrow_pool_requested() != 0 }

    /// Blocks all cooperative threads but one, each in a task that never ends.
    static func start() {
        let width = ProcessInfo.processInfo.activeProcessorCount
        let holders = max(width - 1, 0)
        let started = DispatchSemaphore(value: 0)
        let never = Gate()
        for _ in 0..<holders {
            Task.detached {
                heldThreads.add(1, ordering: .relaxed)
                started.signal()
                never.wait()  // blocks this pool thread for good: the point of the mode
            }
        }
        for _ in 0..<holders { started.wait() }
        FileHandle.standardError.write(
            Data("narrow pool: \(holders) of \(width) cooperative threads held for the whole run\n".utf8))
    }
}

/// What a hung test process prints, so that a hang can be diagnosed from a CI log alone: the
/// futures threads wait for, the tasks suspended in `get()`, the state of the global pools, the
/// narrow-pool mode, and the backtraces of every thread (through gdb, where it is installed:
/// what the cooperative pool's threads are doing).
///
/// `HangWatchdog` prints it before it stops a stress test; a process sent SIGUSR1 prints it and
/// goes on (`scripts/run-with-hang-dump`, which CI runs the tests with, sends it to a test run
/// that exceeds its time limit before ending it).
enum HangDump {
    /// The dump, as text.
    static func text(reason: String, backtraces: Bool = true) -> String {
        var text = "=== hang dump of process \(getpid()): \(reason) ===\n"
        let futures = FutureDiagnostics.waitingFutures()
        text += "futures waited for or queued: \(futures.count)\n"
        for future in futures.prefix(40) { text += "  \(future)\n" }
        if futures.count > 40 { text += "  … and \(futures.count - 40) more\n" }
        let parked = WaitRegistry.parkedThreads()
        text += "blocking readers parked: \(parked.count) (main thread: \(parked.filter(\.isMainThread).count)); "
        text += "tasks suspended in get(): \(FutureDiagnostics.suspendedTasks)\n"
        text += "narrow pool: \(NarrowPool.heldThreads.load(ordering: .relaxed)) cooperative threads held\n"
        text += "diagnostic reports collected (not printed): \(CollectedReports.summary)\n"
        var pools = ""
        ThreadPool.forEachLivePool { pool in pools += "pool \(pool.stateDescription)\n" }
        text += pools
        guard backtraces else { return text + "=== end of hang dump ===\n" }
        let (full, condensed) = threadBacktraces()
        text += full
        // The same in a few lines, last: a CI log is often read from its end only.
        text += "=== hang summary of process \(getpid()) ===\n\(reason)\n"
        text += "futures waited for or queued: \(futures.count); blocking readers parked: \(parked.count); "
        text += "tasks suspended in get(): \(FutureDiagnostics.suspendedTasks)\n"
        text += pools
        text += "threads, by stack (innermost function ← first frames in this package):\n" + condensed
        return text + "=== end of hang dump ===\n"
    }

    /// Writes the dump to standard error.
    static func write(reason: String) {
        FileHandle.standardError.write(Data(text(reason: reason).utf8))
    }

    /// Every thread's backtrace, from gdb attached to this process for a moment; a line saying
    /// why not if gdb is not installed or `FUTURES_HANG_BACKTRACES=0`.
    static func threadBacktraces() -> (full: String, condensed: String) {
        let gdb = "/usr/bin/gdb"
        guard ProcessInfo.processInfo.environment["FUTURES_HANG_BACKTRACES"] != "0" else {
            return ("thread backtraces: off (FUTURES_HANG_BACKTRACES=0)\n", "  (none)\n")
        }
        guard FileManager.default.isExecutableFile(atPath: gdb) else {
            return ("thread backtraces: gdb is not installed\n", "  (none)\n")
        }
        // gdb writes to a file, not a pipe: while it is attached every thread of this process is
        // stopped, the reader of a pipe too, and a pipe that fills (the backtraces of a hundred
        // threads do) would leave gdb blocked on its write for ever.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "futures-hang-\(getpid())-\(UUID()).txt")
        guard FileManager.default.createFile(atPath: path.path, contents: nil),
            let output = try? FileHandle(forWritingTo: path)
        else { return ("thread backtraces: no file for gdb's output\n", "  (none)\n") }
        defer { try? FileManager.default.removeItem(at: path) }
        // Only one dump attaches gdb at a time: a process can have one tracer.
        return gdbLock.withLock {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: gdb)
            process.arguments =
                [
                    "-p", "\(getpid())", "-batch", "-nx", "-ex", "set pagination off", "-ex", "info threads",
                    "-ex", "thread apply all bt\(backtraceDepth)",
                ] + extraGDBCommands.flatMap { ["-ex", $0] }
            process.standardOutput = output
            process.standardError = output
            do {
                try process.run()
            } catch {
                return ("thread backtraces: gdb did not start: \(error)\n", "  (none)\n")
            }
            process.waitUntilExit()
            try? output.close()
            let text = (try? String(contentsOf: path, encoding: .utf8)) ?? ""
            return ("thread backtraces (gdb):\n" + text, condensedBacktraces(of: path))
        }
    }

    /// gdb's backtraces in `file`, one line per distinct stack (`scripts/condense-backtraces`).
    static func condensedBacktraces(of file: URL) -> String {
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/condense-backtraces")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path, file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch { return "  (scripts/condense-backtraces did not start: \(error))\n" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    private static let gdbLock = NSLock()

    /// More gdb commands for the dump, from `FUTURES_HANG_GDB_EXTRA` (separated by `;;`): to look
    /// at memory a hang's threads wait on, for example.
    private static var extraGDBCommands: [String] {
        guard let extra = ProcessInfo.processInfo.environment["FUTURES_HANG_GDB_EXTRA"] else { return [] }
        return extra.components(separatedBy: ";;").filter { !$0.isEmpty }
    }

    /// How many frames of each thread the dump shows: 25, or `FUTURES_HANG_BACKTRACE_DEPTH`
    /// (0 for every frame, to find what a deep stack is waiting for).
    private static var backtraceDepth: String {
        let depth = ProcessInfo.processInfo.environment["FUTURES_HANG_BACKTRACE_DEPTH"].flatMap { Int($0) } ?? 25
        return depth > 0 ? " \(depth)" : ""
    }

    // Written once, by the start hook before any test runs, and never read: it keeps the source alive.
    nonisolated(unsafe) private static var signalSource: (any DispatchSourceSignal)?

    /// Prints the dump (without backtraces: the sender takes them) whenever the process gets
    /// SIGUSR1.
    static func installSignalHandler() {
        signal(SIGUSR1, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGUSR1, queue: DispatchQueue(label: "hang dump"))
        source.setEventHandler {
            FileHandle.standardError.write(Data(text(reason: "SIGUSR1", backtraces: false).utf8))
        }
        source.resume()
        signalSource = source
    }
}
