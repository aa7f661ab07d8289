import Foundation

/// What Futures tells you about futures that wait for ever, or for too long.
///
/// Three kinds of help, for the worst bugs of concurrent code, hangs:
/// - **Wait cycles trap**, in every build: when threads wait for futures whose work waits back
///   for them, the last thread of the cycle to wait stops the program with a message that names
///   every future of the cycle, in order, with its kind and creation site. Only the slow path of a
///   reader that parks is checked; a read of a resolved future costs nothing more.
/// - **Reports**, in debug builds: a ``Promise`` dropped while its future is pending; a blocking
///   read on the main thread that waits longer than ``mainThreadWaitThreshold``, or that runs the
///   work itself for that long; and a blocking read on a thread of Swift's cooperative pool that
///   waits that long. Each is reported once per creation site through ``handler``. Release builds
///   make no report and pay nothing for them.
/// - **A snapshot of what waits**, in every build: ``waitingFutures()`` and
///   ``printWaitingFutures(limit:)`` list the unresolved futures that threads wait for, or whose work
///   waits in a queue, for when a program seems stuck.
///
/// ```swift
/// FutureDiagnostics.handler = { report in logger.warning("\(report)") }
/// FutureDiagnostics.mainThreadWaitThreshold = .milliseconds(100)
/// FutureDiagnostics.printWaitingFutures()
/// ```
public enum FutureDiagnostics {
    /// A problem Futures noticed in a debug build, handed to ``FutureDiagnostics/handler``.
    ///
    /// ```swift
    /// FutureDiagnostics.handler = { report in
    ///     if report.problem == .promiseDroppedWhilePending { assertionFailure(report.description) }
    /// }
    /// ```
    public struct Report: Sendable, Hashable, CustomStringConvertible {
        /// What went wrong.
        ///
        /// ```swift
        /// switch report.problem {
        /// case .promiseDroppedWhilePending: print("a promise was dropped at \(report.creationSite)")
        /// case .mainThreadWait: print("the main thread waited for \(report.future)")
        /// case .blockingReadOnCooperativeThread: print("a task blocked a pool thread on \(report.future)")
        /// }
        /// ```
        public enum Problem: Sendable, Hashable {
            /// The last copy of a ``Promise`` was released while its future was pending and
            /// something could still wait for it: a reference to the future, a future derived
            /// from it, or a callback. The future stays pending (as in release builds).
            case promiseDroppedWhilePending
            /// A blocking read on the main thread waited longer than
            /// ``FutureDiagnostics/mainThreadWaitThreshold``: reported while it still waits, once
            /// per creation site of the future read.
            case mainThreadWait
            /// A blocking read on a thread of Swift's cooperative pool (synchronous code called
            /// from a task, such as a helper that reads `.value`) waited longer than
            /// ``FutureDiagnostics/mainThreadWaitThreshold``: reported while it still waits, once
            /// per creation site of the future read. The pool has one thread per core and adds
            /// none when they block, so such reads stall every task and can deadlock; async code
            /// reads with ``Future/get()``.
            case blockingReadOnCooperativeThread
        }

        /// What went wrong.
        public let problem: Problem
        /// The promise or future concerned, with its types: "Promise<Data, any Error>",
        /// "BackgroundFuture<Int>".
        public let future: String
        /// Where that promise or future was made, as `Module/File.swift:line`.
        public let creationSite: String
        /// The whole message: what happened, where, and what to do.
        public let description: String

        /// Makes a report; Futures makes them, and tests of a handler may.
        ///
        /// ```swift
        /// let report = FutureDiagnostics.Report(
        ///     problem: .mainThreadWait, future: "BackgroundFuture<Int>", creationSite: "App/A.swift:3",
        ///     description: "the main thread waited 0.3 seconds for BackgroundFuture<Int> created at App/A.swift:3")
        /// ```
        public init(problem: Problem, future: String, creationSite: String, description: String) {
            self.problem = problem
            self.future = future
            self.creationSite = creationSite
            self.description = description
        }
    }

    /// What receives each ``Report``; by default ``printToStandardError``.
    ///
    /// It is called on the thread where the problem was seen (the waiting thread for a long wait,
    /// any thread for a dropped promise), holding no lock of Futures; keep it short, and
    /// do not block in it. Setting it from any thread is safe.
    ///
    /// ```swift
    /// let previous = FutureDiagnostics.handler
    /// FutureDiagnostics.handler = { report in
    ///     analytics.record(report.description)
    ///     previous(report)
    /// }
    /// ```
    public static var handler: @Sendable (Report) -> Void {
        get { settings.withLock { $0.handler } }
        set { settings.withLock { $0.handler = newValue } }
    }

    /// The default ``handler``: writes "Futures: " and the report's description, and a new line,
    /// to standard error.
    ///
    /// ```swift
    /// FutureDiagnostics.handler = FutureDiagnostics.printToStandardError   // back to the default
    /// ```
    public static let printToStandardError: @Sendable (Report) -> Void = { report in
        writeToStandardError("Futures: \(report.description)\n")
    }

    /// How long a blocking read on the main thread or on a thread of Swift's cooperative pool may
    /// wait (or, on the main thread, run the work itself) before it is reported, in debug builds;
    /// 250 milliseconds by default (Apple's threshold for a hang). Setting it from any thread is
    /// safe; it applies to reads that start waiting afterwards.
    ///
    /// ```swift
    /// FutureDiagnostics.mainThreadWaitThreshold = .milliseconds(100)
    /// ```
    public static var mainThreadWaitThreshold: Duration {
        get { settings.withLock { $0.mainThreadWaitThreshold } }
        set { settings.withLock { $0.mainThreadWaitThreshold = newValue } }
    }

    /// Whether this build of Futures makes reports: `true` in debug builds, `false` in release
    /// builds, which neither watch promises nor time main-thread reads. Cycle detection and
    /// ``waitingFutures()`` work in both.
    ///
    /// ```swift
    /// if FutureDiagnostics.reportsProblems { print("Futures reports dropped promises") }
    /// ```
    public static var reportsProblems: Bool {
        #if DEBUG
            true
        #else
            false
        #endif
    }

    // MARK: Internals

    struct Settings: Sendable {
        var handler: @Sendable (Report) -> Void = FutureDiagnostics.printToStandardError
        var mainThreadWaitThreshold = EngineTiming.mainThreadWaitThreshold
    }

    static let settings = LockedBox(Settings())

    /// Hands `report` to the handler, on this thread, outside any lock.
    static func send(_ report: Report) {
        let handler = self.handler
        handler(report)
    }

    static func writeToStandardError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
