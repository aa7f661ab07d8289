import Foundation

/// What Futures tells you about futures that wait for ever, or for too long.
///
/// - **Wait cycles trap**, in every build, naming every future of the cycle with its kind and
///   creation site. Only a parking reader's slow path checks; a resolved read pays nothing.
/// - **Reports**, in debug builds, once per creation site through ``handler``: a ``Promise``
///   dropped while pending; a blocking read on the main thread (or on Swift's cooperative pool)
///   longer than ``mainThreadWaitThreshold``. Release builds pay nothing.
/// - **A snapshot of what waits**, in every build: ``waitingFutures()`` and
///   ``printWaitingFutures(limit:)``, for when a program seems stuck.
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
    /// FutureDiagnostics.handler = { report in assertionFailure(report.description) }
    /// ```
    public struct Report: Sendable, Hashable, CustomStringConvertible {
        /// What went wrong.
        ///
        /// ```swift
        /// if report.problem == .mainThreadWait { print("the main thread waited for \(report.future)") }
        /// ```
        public enum Problem: Sendable, Hashable {
            /// The last copy of a ``Promise`` was released while its future was pending and still
            /// reachable. The future stays pending.
            case promiseDroppedWhilePending
            /// A blocking read on the main thread waited longer than
            /// ``FutureDiagnostics/mainThreadWaitThreshold``; reported while it waits.
            case mainThreadWait
            /// A blocking read on a thread of Swift's cooperative pool waited longer than
            /// ``FutureDiagnostics/mainThreadWaitThreshold``. The pool does not grow when its threads block,
            /// so this stalls every task and can deadlock; async code reads with ``Future/get()``.
            case blockingReadOnCooperativeThread
        }

        /// What went wrong.
        public let problem: Problem
        /// The promise or future concerned, with its types: "BackgroundFuture<Int>".
        public let future: String
        /// Where that promise or future was made, as `Module/File.swift:line`.
        public let creationSite: String
        /// The whole message: what happened, where, and what to do.
        public let description: String

        /// Makes a report; Futures makes them, and tests of a handler may.
        ///
        /// ```swift
        /// let report = FutureDiagnostics.Report(
        ///     problem: .mainThreadWait, future: "Future<Int>", creationSite: "App/A.swift:3", description: "waited")
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
    /// Called on the thread that saw the problem, holding no lock of Futures; keep it short and
    /// non-blocking. Settable from any thread.
    ///
    /// ```swift
    /// FutureDiagnostics.handler = { report in analytics.record(report.description) }
    /// ```
    public static var handler: @Sendable (Report) -> Void {
        get { settings.withLock { $0.handler } }
        set { settings.withLock { $0.handler = newValue } }
    }

    /// The default ``handler``: writes "Futures: " and the description to standard error.
    ///
    /// ```swift
    /// FutureDiagnostics.handler = FutureDiagnostics.printToStandardError   // back to the default
    /// ```
    public static let printToStandardError: @Sendable (Report) -> Void = { report in
        writeToStandardError("Futures: \(report.description)\n")
    }

    /// How long a blocking read on the main thread or the cooperative pool may wait (or, on the main
    /// thread, run the work) before a debug build reports it; 250 ms by default. Applies to reads
    /// that start waiting after it is set.
    ///
    /// ```swift
    /// FutureDiagnostics.mainThreadWaitThreshold = .milliseconds(100)
    /// ```
    public static var mainThreadWaitThreshold: Duration {
        get { settings.withLock { $0.mainThreadWaitThreshold } }
        set { settings.withLock { $0.mainThreadWaitThreshold = newValue } }
    }

    /// Whether this build makes reports: `true` in debug builds. Cycle detection and
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

    /// On this thread, outside any lock.
    static func send(_ report: Report) {
        let handler = self.handler
        handler(report)
    }

    static func writeToStandardError(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
}
