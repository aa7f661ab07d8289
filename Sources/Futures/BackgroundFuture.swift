import Dispatch

/// A future whose work starts at once, on a background context.
///
/// Use it to overlap work with whatever the caller does next: loads, decoding, rendering.
///
/// ```swift
/// let pages = urls.map { url in BackgroundFuture { try Data(contentsOf: url) } }
/// let total = try pages.reduce(0) { try $0 + $1.value.count }   // the loads ran in parallel
/// ```
///
/// A reader that finds the work still queued may run it on its own thread: always when the
/// reader is itself running future work (so nested and fan-out futures finish even when every
/// pool thread is waiting), and at top level when that keeps the number of runners within the
/// cores or when the queued work has not started for a while. The queued job then does nothing.
/// The work runs exactly once.
public final class BackgroundFuture<Value: Sendable, Failure: Error>: Future<Value, Failure>, @unchecked Sendable {
    // @unchecked: adds no stored state; the proof on `Future` covers it.

    /// Starts `work` on `context` and returns its future at once.
    ///
    /// ```swift
    /// let answer = BackgroundFuture { expensiveComputation() }        // Future<Int, Never>
    /// let file = BackgroundFuture { try String(contentsOfFile: path) } // Future<String, any Error>
    /// ```
    /// - Parameters:
    ///   - context: Where the work runs; by default Dispatch's global queue.
    ///   - work: The computation. A non-throwing closure gives `Failure == Never`; a closure
    ///     with `try` gives `any Error`; `() throws(MyError) -> T in` gives `MyError`.
    ///   - fileID: The file that makes the future, named in trap messages and debug descriptions;
    ///     leave the default.
    ///   - line: The line that makes the future, likewise; leave the default.
    @inlinable
    public convenience init(
        on context: ExecutionContext = .global(),
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ work: @escaping @Sendable () throws(Failure) -> Value
    ) {
        self.init(context: context, pinned: false, fileID: fileID, line: line, work: work)
    }

    /// Starts `work` on `context` once `delay` has passed, and returns its future at once.
    ///
    /// Readers wait for the delay: they never run the work early. Cancelling the future before
    /// the delay ends (when `Failure` is `any Error`) means the work never runs.
    ///
    /// ```swift
    /// let retry = BackgroundFuture(after: .seconds(2)) { try fetch(url) }
    /// ```
    /// - Parameters:
    ///   - delay: How long to wait before starting; zero or negative starts at once.
    ///   - context: Where the work runs; by default Dispatch's global queue.
    ///   - work: The computation.
    ///   - fileID: The file that makes the future, named in trap messages and debug descriptions;
    ///     leave the default.
    ///   - line: The line that makes the future, likewise; leave the default.
    public convenience init(
        after delay: Duration,
        on context: ExecutionContext = .global(),
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ work: @escaping @Sendable () throws(Failure) -> Value
    ) {
        let timer = ExecutionContext { job in
            DispatchQueue.global().asyncAfter(deadline: .now() + delay.dispatchInterval) {
                context.execute(job)
            }
        }
        self.init(context: timer, pinned: true, fileID: fileID, line: line, work: work)
    }

    /// Starts `work` on `context`. A pinned future's work runs only on `context`: readers
    /// wait for it instead of claiming it (agents and delays rely on that).
    ///
    /// Inlinable, like the lazy path: a client specializes the creation, and the code that runs
    /// the work from a pool, for its types.
    @inlinable
    init(
        context: ExecutionContext,
        pinned: Bool,
        fileID: StaticString,
        line: UInt,
        work: @escaping @Sendable () throws(Failure) -> Value
    ) {
        super.init(work: work, fileID: fileID, line: line, flags: pinned ? StateWord.pinned : StateWord.readerMayClaim)
        if pinned {
            context.execute { [self] in
                guard _claim() else { return }
                Scheduler.runCounted { _runClaimedWork(isRunner: true) }
            }
        } else if let pool = context.pool {
            Scheduler.didEnqueue()
            pool.submit(
                PooledJob(self) { work in
                    unsafeDowncast(work, to: BackgroundFuture<Value, Failure>.self).runClaimedFromPool()
                })
        } else {
            Scheduler.didEnqueue()
            context.execute { [self] in
                guard _claim() else { return }
                Scheduler.didDequeue()
                Scheduler.runCounted { _runClaimedWork(isRunner: true) }
            }
        }
    }

    private var isPinned: Bool {
        _state.load(ordering: .relaxed) & StateWord.pinned != 0
    }

    override var _kindName: String { "BackgroundFuture" }

    override func _pendingBlockingRead(firstLook: Bool, waited: Duration) -> PendingReadAction {
        if isPinned { return .park(recheckAfter: nil) }
        let claim =
            firstLook
            ? Scheduler.readerShouldClaimAtOnce()
            : CurrentWork.isInsideWork || Scheduler.shouldClaimAfterWaiting(waited)
        guard claim else { return .park(recheckAfter: Scheduler.recheckInterval) }
        if _claim() {
            Scheduler.didDequeue()
            Scheduler.runCounted { _runClaimedWork(isRunner: true) }
        }
        return .claimed
    }

    override func _didDropUnstartedWork() {
        if !isPinned { Scheduler.didDequeue() }
    }
}

extension BackgroundFuture: PooledWork {
    @usableFromInline
    func claimFromPool() -> Bool {
        guard _claim() else { return false }
        Scheduler.didDequeue()
        return true
    }

    @usableFromInline
    var looksUnclaimed: Bool {
        StateWord.phase(_state.load(ordering: .relaxed)) == StateWord.pending
    }

    /// Runs the work claimed by `claimFromPool()`, on this thread.
    @inlinable
    func runClaimedFromPool() {
        Scheduler.runCounted { _runClaimedWork(isRunner: true) }
    }
}
