import Foundation
import Synchronization

/// Tests may name a thread to stand for the main one (`standIn`, a `ThreadState`'s address):
/// under `swift test` on Linux no test runs on the main thread.
enum MainThread {
    static let standIn = Atomic<UInt>(0)

    static var isCurrent: Bool {
        if Thread.isMainThread { return true }
        let standIn = standIn.load(ordering: .relaxed)
        return standIn != 0 && standIn == UInt(bitPattern: ObjectIdentifier(ThreadState.current))
    }
}

/// A thread running a Swift task, off the main thread; a blocking read there holds one of the
/// pool's few threads (the pool adds none when they block).
enum CooperativeThread {
    static var isCurrent: Bool { !MainThread.isCurrent && withUnsafeCurrentTask { $0 != nil } }
}

enum WatchedThread: Hashable {
    case main
    case cooperative

    static var current: WatchedThread? {
        if MainThread.isCurrent { return .main }
        if CooperativeThread.isCurrent { return .cooperative }
        return nil
    }
}

/// Debug builds: times one blocking read on a watched thread and reports it once it has waited
/// the threshold, while it still waits; once per kind of thread and creation site. Each park's
/// deadline is brought forward to when the report falls due.
struct BlockingWaitWatch {
    #if DEBUG
        /// `nil` before the first park.
        private var start: ContinuousClock.Instant?
        private var threshold: Duration = .zero
        private var thread = WatchedThread.main
        /// Nothing (more) to report: unwatched thread, or site already reported.
        private var isDone = false
    #endif

    init() {}

    /// `deadline`, or when this read falls due, whichever is first.
    mutating func parkDeadline(
        reading future: _FutureCore, _ deadline: ContinuousClock.Instant?
    ) -> ContinuousClock.Instant? {
        #if DEBUG
            if isDone { return deadline }
            if start == nil {
                guard let thread = WatchedThread.current, !ReportedSites.contains(future, thread) else {
                    isDone = true
                    return deadline
                }
                self.thread = thread
                start = .now
                threshold = FutureDiagnostics.mainThreadWaitThreshold
            }
            guard let start else { return deadline }
            let due = start + threshold
            return deadline.map { min($0, due) } ?? due
        #else
            return deadline
        #endif
    }

    mutating func didPark(reading future: _FutureCore) {
        #if DEBUG
            guard !isDone, let start, !future._isResolved else { return }
            let waited = ContinuousClock.now - start
            guard waited >= threshold else { return }
            isDone = true
            guard ReportedSites.insert(future, thread) else { return }
            let name = future._description
            let site = future._creationSite
            let report: FutureDiagnostics.Report
            switch thread {
            case .main:
                report = FutureDiagnostics.Report(
                    problem: .mainThreadWait, future: name, creationSite: site,
                    description: "the main thread has waited \(waited) (more than \(threshold)) for \(name) created at "
                        + "\(site), and still waits; a blocked main thread freezes the user interface. If what would "
                        + "resolve it needs the main thread (main-actor code such as a Task started there, or work "
                        + "and callbacks on .main), it never will while the main thread waits: a deadlock. Read it "
                        + "with onComplete(on: .main) or await get() instead (reported once for this creation site)")
            case .cooperative:
                report = FutureDiagnostics.Report(
                    problem: .blockingReadOnCooperativeThread, future: name, creationSite: site,
                    description: "a blocking read on a thread of Swift's cooperative pool has waited \(waited) (more "
                        + "than \(threshold)) for \(name) created at \(site), and still waits. The pool has one "
                        + "thread per core and adds none when they block: every task waits meanwhile, and if the "
                        + "future needs a task to resolve it while blocked reads hold every thread, it never "
                        + "resolves (a deadlock). Read it with await get() in async code, not with a synchronous "
                        + "helper that reads .value (reported once for this creation site)")
            }
            FutureDiagnostics.send(report)
        #endif
    }
}

/// Debug builds: times work a blocking read runs itself on a watched thread (a busy thread is
/// held as a blocked one is) and reports it past the threshold; sites shared with
/// `BlockingWaitWatch`.
@usableFromInline
struct ReaderRunWatch {
    #if DEBUG
        private let start: ContinuousClock.Instant?
        private let threshold: Duration
        private let thread: WatchedThread
    #endif

    @usableFromInline
    init(running future: _FutureCore) {
        #if DEBUG
            if let thread = WatchedThread.current, !ReportedSites.contains(future, thread) {
                start = .now
                self.thread = thread
                threshold = FutureDiagnostics.mainThreadWaitThreshold
            } else {
                start = nil
                thread = .main
                threshold = .zero
            }
        #endif
    }

    @usableFromInline
    func finish(running future: _FutureCore) {
        #if DEBUG
            guard let start else { return }
            let took = ContinuousClock.now - start
            guard took >= threshold, ReportedSites.insert(future, thread) else { return }
            let name = future._description
            let site = future._creationSite
            switch thread {
            case .main:
                FutureDiagnostics.send(
                    FutureDiagnostics.Report(
                        problem: .mainThreadWait, future: name, creationSite: site,
                        description: "the main thread spent \(took) (more than \(threshold)) running the work of "
                            + "\(name) created at \(site) itself: a reader runs work that has not started rather "
                            + "than wait for it, and a busy main thread freezes the user interface as a blocked one "
                            + "does. Start the work early on a background context and read it with "
                            + "onComplete(on: .main) or await get() instead (reported once for this creation site)"))
            case .cooperative:
                FutureDiagnostics.send(
                    FutureDiagnostics.Report(
                        problem: .blockingReadOnCooperativeThread, future: name, creationSite: site,
                        description: "a blocking read on a thread of Swift's cooperative pool spent \(took) (more "
                            + "than \(threshold)) running the work of \(name) created at \(site) itself: a reader "
                            + "runs work that has not started rather than wait for it, and the pool, one thread per "
                            + "core, adds none while it runs. Read it with await get() in async code, not with a "
                            + "synchronous helper that reads .value (reported once for this creation site)"))
            }
        #endif
    }
}

#if DEBUG
    enum ReportedSites {
        private struct Key: Hashable {
            let site: UInt64
            let thread: WatchedThread
        }

        private static let sites = LockedBox(Set<Key>())

        static func contains(_ future: _FutureCore, _ thread: WatchedThread) -> Bool {
            sites.withLock { $0.contains(Key(site: site(of: future), thread: thread)) }
        }

        /// `false` if already recorded.
        static func insert(_ future: _FutureCore, _ thread: WatchedThread) -> Bool {
            sites.withLock { $0.insert(Key(site: site(of: future), thread: thread)).inserted }
        }

        private static func site(of future: _FutureCore) -> UInt64 { future._word.raw >> 8 }
    }
#endif
