/// Everything Futures keeps per thread, in one object reached through one thread-local slot.
///
/// A `ThreadState` is made by the thread it belongs to, stored in that thread's slot
/// (`ThreadLocalSlot`, which holds one retain), and released by the slot's destructor when the
/// thread exits. Only its own thread ever reaches it: `current` reads the calling thread's slot,
/// and no reference to it is handed to another thread. So its fields need no lock, and run-time
/// exclusivity checks on them are off: no two threads access them, and no `inout` access to a
/// field is held across a call that could touch the same field.
@usableFromInline
final class ThreadState {
    /// The futures whose work runs on this thread, outermost first, in a buffer of this object's
    /// own: a push or a pop is a store and a count, with no reference counting or uniqueness check
    /// (gated: lazy create+read). Unretained: an entry is pushed and popped by `CurrentWork.run`,
    /// whose caller holds the future for the whole run.
    @exclusivity(unchecked) private var runningBuffer: UnsafeMutablePointer<Unmanaged<_FutureCore>>
    @exclusivity(unchecked) private var runningCapacity = 8
    @exclusivity(unchecked) private(set) var runningCount = 0

    /// The context whose runners count this thread while it runs that context's work; `nil`
    /// when the thread is not counted, or counted by its `worker` record.
    @exclusivity(unchecked) var countedBy: ContextScheduler?

    /// The record a pool's monitor watches, on a pool's own worker threads; `nil` elsewhere.
    @exclusivity(unchecked) var worker: WorkerRecord?

    /// Callbacks waiting to run on this thread, while it runs callbacks (`CallbackTrampoline`);
    /// `nil` where one was taken out to run.
    @exclusivity(unchecked) var pendingCallbacks: [PendingDelivery?] = []
    /// The next entry of `pendingCallbacks` to run.
    var pendingCallbacksHead = 0
    var isRunningCallbacks = false

    /// References waiting to be released on this thread, while it releases (`ReleaseTrampoline`).
    @exclusivity(unchecked) var pendingReleases: [Any] = []
    var isReleasing = false

    private init() {
        runningBuffer = .allocate(capacity: runningCapacity)
    }

    deinit {
        runningBuffer.deallocate()
    }

    /// Pushes `future` on the chain of running work.
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

    /// Pops the innermost future of the chain.
    func popRunning() {
        runningCount &-= 1
    }

    /// The futures whose work runs on this thread, outermost first (a copy, for slow paths).
    var running: [Unmanaged<_FutureCore>] {
        Array(UnsafeBufferPointer(start: runningBuffer, count: runningCount))
    }

    /// The innermost future of the chain.
    var innermostRunning: _FutureCore? {
        runningCount > 0 ? runningBuffer[runningCount - 1].takeUnretainedValue() : nil
    }

    /// Whether `future` is on the chain, at any depth.
    func isRunning(_ future: _FutureCore) -> Bool {
        let wanted = Unmanaged.passUnretained(future).toOpaque()
        for index in 0..<runningCount where runningBuffer[index].toOpaque() == wanted { return true }
        return false
    }

    /// This thread's state, made on first use.
    static var current: ThreadState {
        currentUnmanaged.takeUnretainedValue()
    }

    /// This thread's state, made on first use, without a reference count: the thread-local slot
    /// holds it for as long as the thread lives.
    static var currentUnmanaged: Unmanaged<ThreadState> {
        if let state = ThreadLocalSlot.load() { return Unmanaged.fromOpaque(state) }
        let state = Unmanaged.passRetained(ThreadState())
        ThreadLocalSlot.store(state.toOpaque())
        return state
    }

    /// This thread's state if it has one; never makes one.
    static var existing: ThreadState? {
        ThreadLocalSlot.load().map { Unmanaged<ThreadState>.fromOpaque($0).takeUnretainedValue() }
    }
}

/// The chain of future work running on the current thread.
///
/// It answers questions on slow paths only: is this thread inside future work (so it must claim
/// queued work instead of waiting, docs/design.md, Claiming), is it already running the future it
/// is about to wait for (recursion), and which future's cancellation does
/// `Future.isCurrentWorkCancelled` report.
@usableFromInline
enum CurrentWork {
    /// Runs `body` with `future` pushed on this thread's chain.
    @inlinable
    static func run<R>(_ future: _FutureCore, _ body: () -> R) -> R {
        let state = push(future)
        defer { pop(state) }
        return body()
    }

    /// Pushes `future` on this thread's chain; returns the state to pop it from, unretained (the
    /// thread-local slot holds it while the thread lives).
    @usableFromInline
    static func push(_ future: _FutureCore) -> Unmanaged<ThreadState> {
        let state = ThreadState.currentUnmanaged
        state._withUnsafeGuaranteedRef { $0.pushRunning(future) }
        return state
    }

    /// Pops the innermost entry of this thread's chain.
    @usableFromInline
    static func pop(_ state: Unmanaged<ThreadState>) {
        state._withUnsafeGuaranteedRef { $0.popRunning() }
    }

    /// Whether `future`'s work is running on this thread, at any depth.
    static func contains(_ future: _FutureCore) -> Bool {
        ThreadState.existing?.isRunning(future) ?? false
    }

    /// Whether this thread is running future work.
    static var isInsideWork: Bool {
        (ThreadState.existing?.runningCount ?? 0) > 0
    }

    /// The future whose work is innermost on this thread.
    static var innermost: _FutureCore? {
        ThreadState.existing?.innermostRunning
    }
}
