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
/// Nothing here points into a stack frame: the chain, the queues and the lists are buffers owned
/// by this object, freed with it.
@usableFromInline
final class ThreadState {
    /// The futures whose work runs on this thread, outermost first, in a buffer of this
    /// object's own: pushing and popping is a store and a count, with no reference counting or
    /// uniqueness check, on the path of every lazy future's first read. Unretained: an entry is
    /// pushed and popped by `CurrentWork.run`, whose caller holds the future for the whole run.
    @exclusivity(unchecked) @usableFromInline var runningBuffer: UnsafeMutablePointer<Unmanaged<_FutureCore>>
    @exclusivity(unchecked) @usableFromInline var runningCapacity = 8
    @exclusivity(unchecked) @usableFromInline var runningCount = 0

    /// The context whose runners count this thread while it runs that context's work; `nil`
    /// when the thread is not counted, or counted by its `worker` record. Unretained: it is set
    /// and cleared by `ContextScheduler.runCounted`, whose caller holds the scheduler meanwhile.
    @exclusivity(unchecked) unowned(unsafe) var countedBy: ContextScheduler?

    /// The record a pool's monitor watches, on a pool's own worker threads; `nil` elsewhere.
    @exclusivity(unchecked) var worker: WorkerRecord?

    /// Callbacks waiting to run on this thread, while it runs callbacks (`CallbackTrampoline`);
    /// `nil` where one was taken out to run.
    @exclusivity(unchecked) var pendingCallbacks: [PendingDelivery?] = []
    /// The next entry of `pendingCallbacks` to run.
    @exclusivity(unchecked) var pendingCallbacksHead = 0
    @exclusivity(unchecked) var isRunningCallbacks = false

    /// References waiting to be released on this thread, while it releases (`ReleaseTrampoline`).
    @exclusivity(unchecked) var pendingReleases: [Any] = []
    @exclusivity(unchecked) var isReleasing = false

    private init() {
        runningBuffer = .allocate(capacity: runningCapacity)
    }

    deinit {
        runningBuffer.deallocate()
    }

    /// Pushes `future` on the chain of running work; in line in the client, as `CurrentWork.push`
    /// is, the rare growth behind a call.
    @inlinable @inline(__always)
    func pushRunning(_ future: _FutureCore) {
        if runningCount == runningCapacity { growRunning() }
        (runningBuffer + runningCount).initialize(to: Unmanaged.passUnretained(future))
        runningCount &+= 1
    }

    /// Pops the innermost future of the chain. Inlined into the run of every future's work.
    @inlinable
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

    @usableFromInline
    func growRunning() {
        let larger = UnsafeMutablePointer<Unmanaged<_FutureCore>>.allocate(capacity: runningCapacity * 2)
        larger.moveInitialize(from: runningBuffer, count: runningCount)
        runningBuffer.deallocate()
        runningBuffer = larger
        runningCapacity *= 2
    }

    /// This thread's state, made on first use.
    @usableFromInline
    static var current: ThreadState {
        currentUnmanaged.takeUnretainedValue()
    }

    /// This thread's state, made on first use, without a reference count: the thread-local slot
    /// holds it for as long as the thread lives.
    @usableFromInline
    static var currentUnmanaged: Unmanaged<ThreadState> {
        if let state = existingUnmanaged { return state }
        let state = Unmanaged.passRetained(ThreadState())
        ThreadLocalSlot.store(state.toOpaque())
        return state
    }

    /// This thread's state if it has one; never makes one.
    static var existing: ThreadState? {
        existingUnmanaged?.takeUnretainedValue()
    }

    /// This thread's state if it has one, without a reference count: the thread-local slot's load.
    @inlinable @inline(__always)
    static var existingUnmanaged: Unmanaged<ThreadState>? {
        ThreadLocalSlot.load().map { Unmanaged<ThreadState>.fromOpaque($0) }
    }
}

/// The chain of future work running on the current thread.
///
/// It answers questions on slow paths only: is this thread inside future work (so it must claim
/// queued work instead of waiting, docs/design.md, Claiming), is it already running the future it is about
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
    @inlinable @inline(__always)
    static func push(_ future: _FutureCore) -> Unmanaged<ThreadState> {
        // Inlined into the client with the slot's load, the first use's allocation behind a call:
        // the push runs on every lazy future's first read, and as a call (two, with its thunk) it
        // was 26 of the 790 instructions of a lazy create and read, against 12 in line
        // (BENCHMARKS.md, twenty-seventh round). (`currentUnmanaged` itself is left out of line:
        // inlined, it made the release trampoline retain the state around its loop.)
        let state = ThreadState.existingUnmanaged ?? ThreadState.currentUnmanaged
        state._withUnsafeGuaranteedRef { $0.pushRunning(future) }
        return state
    }

    /// Pops the innermost entry of this thread's chain: a decrement, inlined into the caller.
    @inlinable @inline(__always)
    static func pop(_ state: Unmanaged<ThreadState>) {
        state._withUnsafeGuaranteedRef { $0.popRunning() }
    }

    /// Whether `future`'s work is running on this thread, at any depth.
    static func contains(_ future: _FutureCore) -> Bool {
        ThreadState.existing?.isRunning(future) ?? false
    }

    /// Whether this thread is running future work.
    @usableFromInline
    static var isInsideWork: Bool {
        (ThreadState.existing?.runningCount ?? 0) > 0
    }

    /// The future whose work is innermost on this thread.
    static var innermost: _FutureCore? {
        ThreadState.existing?.innermostRunning
    }
}
