/// Per-thread state, held by `ThreadLocalSlot`. Only its own thread reaches it: no lock. The
/// fields on the read and callback paths skip exclusivity checks (no `inout` access to one is held
/// across a call that could touch it).
@usableFromInline
final class ThreadState {
    /// Futures whose work runs here, outermost first: a raw buffer, so push and pop pay no
    /// refcount or uniqueness check (gated: lazy create+read). Unretained: `CurrentWork.run`'s
    /// caller holds the future for the whole run.
    @exclusivity(unchecked) private var runningBuffer: UnsafeMutablePointer<Unmanaged<_FutureCore>>
    @exclusivity(unchecked) private var runningCapacity = 8
    @exclusivity(unchecked) private(set) var runningCount = 0

    /// The context counting this thread as a runner; `nil` if uncounted or counted by `worker`.
    @exclusivity(unchecked) var countedBy: ContextScheduler?

    /// Set on a pool's worker threads only.
    @exclusivity(unchecked) var worker: WorkerRecord?

    /// Queued while this thread runs callbacks (`CallbackTrampoline`); `nil` once taken out.
    @exclusivity(unchecked) var pendingCallbacks: [PendingDelivery?] = []
    var pendingCallbacksHead = 0
    var isRunningCallbacks = false

    /// Queued while this thread releases (`ReleaseTrampoline`).
    var pendingReleases: [Any] = []
    var isReleasing = false

    private init() { runningBuffer = .allocate(capacity: runningCapacity) }
    deinit { runningBuffer.deallocate() }

    func pushRunning(_ future: _FutureCore) {
        if runningCount == runningCapacity {
            let larger = UnsafeMutablePointer<Unmanaged<_FutureCore>>.allocate(capacity: runningCapacity * 2)
            larger.moveInitialize(from: runningBuffer, count: runningCount)
            runningBuffer.deallocate()
            runningBuffer = larger
            runningCapacity *= 2
        }
        (runningBuffer + runningCount).initialize(to: Unmanaged.passUnretained(future))
        runningCount &+= 1
    }

    func popRunning() { runningCount &-= 1 }

    /// A copy, for slow paths.
    var running: [_FutureCore] { (0..<runningCount).map { runningBuffer[$0].takeUnretainedValue() } }

    var innermostRunning: _FutureCore? {
        runningCount > 0 ? runningBuffer[runningCount - 1].takeUnretainedValue() : nil
    }

    func isRunning(_ future: _FutureCore) -> Bool {
        for index in 0..<runningCount where runningBuffer[index].takeUnretainedValue() === future { return true }
        return false
    }

    static var current: ThreadState { currentUnmanaged.takeUnretainedValue() }

    /// Made on first use; unretained, the slot holding it while the thread lives.
    static var currentUnmanaged: Unmanaged<ThreadState> {
        if let state = ThreadLocalSlot.load() { return Unmanaged.fromOpaque(state) }
        let state = Unmanaged.passRetained(ThreadState())
        ThreadLocalSlot.store(state.toOpaque())
        return state
    }

    /// Runs `body` with this thread's state borrowed, not retained: its thread-local slot holds it
    /// while the thread lives (gated: map step, lazy create+read).
    static func withCurrent<R>(_ body: (ThreadState) throws -> R) rethrows -> R {
        try currentUnmanaged._withUnsafeGuaranteedRef(body)
    }

    /// Never makes one.
    static var existing: ThreadState? {
        ThreadLocalSlot.load().map { Unmanaged<ThreadState>.fromOpaque($0).takeUnretainedValue() }
    }
}

/// The future work running on this thread, for slow paths: claiming (docs/design.md), recursion,
/// and `Future.isCurrentWorkCancelled`.
@usableFromInline
enum CurrentWork {
    /// Runs `body`, `future`'s work, with `future` on this thread's chain of running work.
    /// Inlinable, so the work runs specialized with no closure between (gated: lazy create+read).
    @inlinable
    static func run<R>(_ future: _FutureCore, _ body: () -> R) -> R {
        let state = push(future)
        defer { pop(state) }
        return body()
    }

    /// Returns the state to pop from, unretained: `pop` needs no second thread-local lookup.
    @usableFromInline
    static func push(_ future: _FutureCore) -> Unmanaged<ThreadState> {
        ThreadState.withCurrent { state in
            state.pushRunning(future)
            return .passUnretained(state)
        }
    }

    @usableFromInline
    static func pop(_ state: Unmanaged<ThreadState>) { state._withUnsafeGuaranteedRef { $0.popRunning() } }

    static func contains(_ future: _FutureCore) -> Bool { ThreadState.existing?.isRunning(future) ?? false }
    static var isInsideWork: Bool { (ThreadState.existing?.runningCount ?? 0) > 0 }
    static var innermost: _FutureCore? { ThreadState.existing?.innermostRunning }
}
