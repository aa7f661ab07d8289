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
    public init(
        on context: ExecutionContext = .global(),
        fileID: StaticString = #fileID,
        line: UInt = #line,
        _ work: @escaping @Sendable () throws(Failure) -> Value
    ) {
        super.init(work: work, fileID: fileID, line: line)
        Scheduler.didEnqueue()
        context.execute { [self] in
            guard _claim() else { return }
            Scheduler.didDequeue()
            Scheduler.runCounted { _runClaimedWork(isRunner: true) }
        }
    }

    override var _kindName: String { "BackgroundFuture" }

    override func _pendingBlockingRead(firstLook: Bool, waited: Duration) -> PendingReadAction {
        let claim =
            CurrentWork.isInsideWork
            || (firstLook ? Scheduler.demandFitsCores : Scheduler.shouldClaimAfterWaiting(waited))
        guard claim else { return .park(recheckAfter: Scheduler.recheckInterval) }
        if _claim() {
            Scheduler.didDequeue()
            Scheduler.runCounted { _runClaimedWork(isRunner: true) }
        }
        return .claimed
    }

    override func _didDropUnstartedWork() {
        Scheduler.didDequeue()
    }
}
