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

/// In debug builds, times one blocking read that waits on the main thread, and reports it through
/// ``FutureDiagnostics/handler`` once it has waited ``FutureDiagnostics/mainThreadWaitThreshold``,
/// while it still waits; once per creation site of the future read. Empty in release builds.
///
/// The waiting loops keep one for each read and pass it to every park: the park's deadline is
/// brought forward to the moment the report falls due, and the loop goes on waiting after it.
struct MainThreadWaitWatch {
    #if DEBUG
        /// When the read first parked, and the threshold then; `nil` before the first park.
        private var start: ContinuousClock.Instant?
        private var threshold: Duration = .zero
        /// Whether this read has nothing (more) to report: not on the main thread, the site was
        /// reported already, or this read reported it.
        private var isDone = false

        /// The sites reported so far: the creation file's number and line, from the state word.
        private static let reportedSites = LockedBox(Set<UInt64>())
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
                guard MainThread.isCurrent, !Self.reportedSites.withLock({ $0.contains(Self.site(of: future)) }) else {
                    isDone = true
                    return deadline
                }
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
            guard Self.reportedSites.withLock({ $0.insert(Self.site(of: future)).inserted }) else { return }
            let name = future._description
            let site = future._creationSite
            FutureDiagnostics.send(
                FutureDiagnostics.Report(
                    problem: .mainThreadWait, future: name, creationSite: site,
                    description: "the main thread has waited \(waited) (more than \(threshold)) for \(name) created at "
                        + "\(site), and still waits; a blocked main thread freezes the user interface. Read it with "
                        + "onComplete(on: .main) or await get() instead (reported once for this creation site)"))
        #endif
    }

    #if DEBUG
        private static func site(of future: _FutureCore) -> UInt64 {
            future._word.raw >> 8
        }
    #endif
}
