/// Everything Futures keeps per thread, in one object reached through one thread-local slot.
///
/// The safety argument, in the manner of `NIOLock`'s: a `ThreadState` is made by the thread it
/// belongs to, stored in that thread's slot (`ThreadLocalSlot`, which holds one retain), and
/// released by the slot's destructor when the thread exits. Only its own thread ever reaches it:
/// `current` reads the calling thread's slot, and no reference to it is handed to another thread.
/// So its fields need no lock, and run-time exclusivity checks on them are off: they are never
/// accessed by two threads, and the code below never holds an `inout` access to one field across
/// a call that could touch the same field.
///
/// Nothing here points into a stack frame: the queues and lists are arrays owned by this object.
@usableFromInline
final class ThreadState {
    /// The futures whose work runs on this thread, outermost first. Unretained: an entry is
    /// pushed and popped by `CurrentWork.run`, whose caller holds the future for the whole run.
    @exclusivity(unchecked) var running: [Unmanaged<_FutureCore>] = []

    /// The context whose runners count this thread while it runs that context's work; `nil`
    /// when the thread is not counted. Unretained: it is set and cleared by
    /// `ContextScheduler.runCounted` (or a pool worker around a job), whose caller holds the
    /// scheduler meanwhile.
    @exclusivity(unchecked) unowned(unsafe) var countedBy: ContextScheduler?

    /// The record a pool's monitor watches, on a pool's own worker threads; `nil` elsewhere.
    @exclusivity(unchecked) var worker: WorkerRecord?

    /// Callbacks waiting to run on this thread, while it runs callbacks (`CallbackTrampoline`).
    @exclusivity(unchecked) var pendingCallbacks: [(_FutureCore, [ParkedCallback])] = []
    /// The next entry of `pendingCallbacks` to run.
    @exclusivity(unchecked) var pendingCallbacksHead = 0
    @exclusivity(unchecked) var isRunningCallbacks = false

    /// References waiting to be released on this thread, while it releases (`ReleaseTrampoline`).
    @exclusivity(unchecked) var pendingReleases: [Any] = []
    @exclusivity(unchecked) var isReleasing = false

    private init() {}

    /// This thread's state, made on first use.
    @usableFromInline
    static var current: ThreadState {
        if let stored = ThreadLocalSlot.load() {
            return Unmanaged<ThreadState>.fromOpaque(stored).takeUnretainedValue()
        }
        let state = ThreadState()
        ThreadLocalSlot.store(Unmanaged.passRetained(state).toOpaque())
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
/// queued work instead of waiting, DESIGN §5.2), is it already running the future it is about
/// to wait for (recursion), and which future's cancellation does `Future.isCurrentWorkCancelled`
/// report.
@usableFromInline
enum CurrentWork {
    /// Runs `body` with `future` pushed on this thread's chain.
    ///
    /// Inlinable, like the rest of the path from a lazy future's creation to its first read, so
    /// that a client specializes it for its types instead of running generic code.
    @inlinable
    static func run<R>(_ future: _FutureCore, _ body: () -> R) -> R {
        let state = push(future)
        defer { pop(state) }
        return body()
    }

    /// Pushes `future` on this thread's chain; returns the state to pop it from.
    @usableFromInline
    static func push(_ future: _FutureCore) -> Unmanaged<ThreadState> {
        let state = ThreadState.current
        state.running.append(Unmanaged.passUnretained(future))
        return Unmanaged.passUnretained(state)
    }

    /// Pops the innermost entry of this thread's chain.
    @usableFromInline
    static func pop(_ state: Unmanaged<ThreadState>) {
        state.takeUnretainedValue().running.removeLast()
    }

    /// Whether `future`'s work is running on this thread, at any depth.
    static func contains(_ future: _FutureCore) -> Bool {
        guard let state = ThreadState.existing else { return false }
        return state.running.contains { $0.toOpaque() == Unmanaged.passUnretained(future).toOpaque() }
    }

    /// Whether this thread is running future work.
    @usableFromInline
    static var isInsideWork: Bool {
        guard let state = ThreadState.existing else { return false }
        return !state.running.isEmpty
    }

    /// The future whose work is innermost on this thread.
    static var innermost: _FutureCore? {
        ThreadState.existing?.running.last?.takeUnretainedValue()
    }
}
