import Foundation
import Synchronization

/// The global counters behind the rule for when a reader claims queued background work.
///
/// `queued` counts background futures whose work is enqueued but unstarted; `active` counts
/// threads running background work and not parked in a wait. A reader that is itself inside
/// future work always claims (otherwise nested fan-out can starve a pool whose threads all
/// wait). A top-level reader claims only if the demand, counting the work it would take, fits
/// the cores (`active + queued <= cores`); otherwise it parks and, each time it wakes with the
/// work still unstarted, claims if a core has fallen idle (`active < cores`) or after
/// `starvationLimit` — a pool that is neither busy with our work nor starting it is stuck.
@usableFromInline
enum Scheduler {
    static let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
    static let queued = Atomic<Int>(0)
    static let active = Atomic<Int>(0)

    /// How long a top-level reader parks before it looks at the counters again.
    static let recheckInterval: Duration = .milliseconds(1)
    /// How long a top-level reader waits for queued work before it runs it anyway.
    static let starvationLimit: Duration = .milliseconds(50)

    @usableFromInline static func didEnqueue() { queued.wrappingAdd(1, ordering: .relaxed) }
    @usableFromInline static func didDequeue() { queued.wrappingSubtract(1, ordering: .relaxed) }

    /// Whether a blocking reader that just found background work queued should take it now:
    /// always from inside future work, otherwise when the demand fits the cores.
    @usableFromInline
    static func readerShouldClaimAtOnce() -> Bool {
        CurrentWork.isInsideWork || demandFitsCores
    }

    /// Whether a top-level reader that just found the work queued should take it now.
    static var demandFitsCores: Bool {
        active.load(ordering: .relaxed) + queued.load(ordering: .relaxed) <= cores
    }

    /// Whether a top-level reader that waited and still finds the work queued should take it.
    static func shouldClaimAfterWaiting(_ waited: Duration) -> Bool {
        waited >= starvationLimit || active.load(ordering: .relaxed) < cores
    }

    /// Runs `body` counted as an active runner, unless the thread already is one.
    @inlinable
    static func runCounted<R>(_ body: () -> R) -> R {
        let counted = beginCountedRun()
        defer { if counted { endCountedRun() } }
        return body()
    }

    /// Counts this thread as an active runner unless it is one already; returns whether it did.
    @usableFromInline
    static func beginCountedRun() -> Bool {
        if CurrentWork.isRunner { return false }
        active.wrappingAdd(1, ordering: .relaxed)
        return true
    }

    @usableFromInline
    static func endCountedRun() {
        active.wrappingSubtract(1, ordering: .relaxed)
    }

    /// Runs `body` (a park) uncounted if this thread is a counted runner: a parked runner
    /// leaves its core to others.
    static func parkUncounted<R>(_ body: () -> R) -> R {
        guard CurrentWork.isRunner else { return body() }
        active.wrappingSubtract(1, ordering: .relaxed)
        defer { active.wrappingAdd(1, ordering: .relaxed) }
        return body()
    }
}

extension Duration {
    /// The duration as a Dispatch interval, clamped to what Dispatch can express.
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return .nanoseconds(0) }
        guard seconds < Int64(Int.max / 1_000_000_000) - 1 else { return .never }
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
