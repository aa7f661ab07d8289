import Foundation
import Synchronization

/// Whether the calling thread is the main thread: for main-thread reports, cycle messages and
/// ``FutureDiagnostics/waitingFutures()``.
///
/// Tests may name a thread of their own to stand for it (`standIn`, a `ThreadState`'s address):
/// under `swift test` on Linux no test code runs on the process's main thread.
enum MainThread {
    static let standIn = Atomic<UInt>(0)

    static var isCurrent: Bool {
        if Thread.isMainThread { return true }
        let standIn = standIn.load(ordering: .relaxed)
        return standIn != 0 && standIn == UInt(bitPattern: ObjectIdentifier(ThreadState.current))
    }
}

/// Whether the calling thread is running a Swift task, off the main thread: a thread of Swift's
/// cooperative pool (or of a custom executor's). Synchronous code called from async code runs
/// there; a blocking read in it holds one of the pool's few threads (one per core, and the pool
/// adds none when they block).
enum CooperativeThread {
    static var isCurrent: Bool {
        !MainThread.isCurrent && withUnsafeCurrentTask { $0 != nil }
    }
}

/// The threads whose long blocking reads are reported, in debug builds.
enum WatchedThread: Hashable {
    case main
    case cooperative

    /// The kind of the calling thread, or `nil` if its waits are not watched.
    static var current: WatchedThread? {
        if MainThread.isCurrent { return .main }
        if CooperativeThread.isCurrent { return .cooperative }
        return nil
    }
}

/// In debug builds, times one blocking read that waits on the main thread or on a thread of
/// Swift's cooperative pool, and reports it through ``FutureDiagnostics/handler`` once it has
/// waited ``FutureDiagnostics/mainThreadWaitThreshold``, while it still waits; once per kind of
/// thread and creation site of the future read. Empty in release builds.
///
/// The waiting loops keep one for each read and pass it to every park: the park's deadline is
/// brought forward to the moment the report falls due, and the loop goes on waiting after it.
struct BlockingWaitWatch {
    #if DEBUG
        /// When the read first parked, and the threshold then; `nil` before the first park.
        private var start: ContinuousClock.Instant?
        private var threshold: Duration = .zero
        private var thread = WatchedThread.main
        /// Whether this read has nothing (more) to report: not on a watched thread, the site was
        /// reported already, or this read reported it.
        private var isDone = false
    #endif

    init() {}

    /// The deadline for the next park of a read of `future`: `deadline`, or the moment this read
    /// is due to be reported, whichever comes first.
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

    /// After a park: reports the read if it has waited the threshold and `future` is still
    /// unresolved.
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

/// In debug builds, times work that a blocking read runs itself (a lazy future's, or queued
/// background work the reader claimed) on the main thread or on a thread of Swift's cooperative
/// pool, and reports it through ``FutureDiagnostics/handler`` when it took longer than
/// ``FutureDiagnostics/mainThreadWaitThreshold``: such a thread busy running work is held as a
/// blocked one is. Once per kind of thread and creation site, shared with `BlockingWaitWatch`.
/// Empty in release builds.
@usableFromInline
struct ReaderRunWatch {
    #if DEBUG
        private let start: ContinuousClock.Instant?
        private let threshold: Duration
        private let thread: WatchedThread
    #endif

    /// Starts timing, if this is a watched thread and `future`'s site was not reported for it yet.
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

    /// After the work ran: reports it if it took the threshold or more.
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
    /// The creation sites already reported, per kind of thread: each is reported once.
    enum ReportedSites {
        private struct Key: Hashable {
            let site: UInt64
            let thread: WatchedThread
        }

        private static let sites = LockedBox(Set<Key>())

        static func contains(_ future: _FutureCore, _ thread: WatchedThread) -> Bool {
            sites.withLock { $0.contains(Key(site: site(of: future), thread: thread)) }
        }

        /// Records the site; `false` if it was recorded already.
        static func insert(_ future: _FutureCore, _ thread: WatchedThread) -> Bool {
            sites.withLock { $0.insert(Key(site: site(of: future), thread: thread)).inserted }
        }

        /// The creation file's number and line, from the state word.
        private static func site(of future: _FutureCore) -> UInt64 {
            future._word.raw >> 8
        }
    }
#endif
