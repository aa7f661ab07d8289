import Dispatch

/// A future whose work starts at once, on a background context.
///
/// ```swift
/// let pages = urls.map { url in BackgroundFuture { try Data(contentsOf: url) } }
/// let total = try pages.reduce(0) { try $0 + $1.value.count }   // the loads ran in parallel
/// ```
///
/// The default ``ExecutionContext/global(qos:)`` runs a job per core and adds threads while jobs
/// block, up to 64; ``ExecutionContext/io`` gives each load a thread, up to 256. A reader finding the
/// work still queued may run it itself (always from inside future work, so nested futures finish);
/// the work runs exactly once.
public final class BackgroundFuture<Value: Sendable, Failure: Error>: Future<Value, Failure>, @unchecked Sendable {
    // @unchecked: adds no stored state; the proof on `Future` covers it.

    /// Starts `work` on `context` and returns its future at once.
    ///
    /// ```swift
    /// let answer = BackgroundFuture { expensiveComputation() }        // Future<Int, Never>
    /// let file = BackgroundFuture { try String(contentsOfFile: path) } // Future<String, any Error>
    /// ```
    /// - Parameters:
    ///   - context: Where the work runs; by default the global context.
    ///   - work: The computation. A non-throwing closure gives `Failure == Never`; a closure
    ///     with `try` gives `any Error`; `() throws(MyError) -> T in` gives `MyError`.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    @inlinable
    public convenience init(
        on context: ExecutionContext = .global(),
        fileID: StaticString = #fileID, line: UInt = #line,
        _ work: @escaping @Sendable () throws(Failure) -> Value
    ) {
        self.init(context: context, pinned: false, fileID: fileID, line: line, work: work)
    }

    /// Starts `work` on `context` once `delay` has passed, and returns its future at once.
    ///
    /// Readers never run the work early. Cancelling before the delay ends (when `Failure` is
    /// `any Error`) means it never runs. A Dispatch timer hands the work over; no thread waits.
    ///
    /// ```swift
    /// let retry = BackgroundFuture(after: .seconds(2)) { try fetch(url) }
    /// ```
    /// - Parameters:
    ///   - delay: How long to wait before starting; zero or negative starts at once.
    ///   - context: Where the work runs; by default the global context.
    ///   - work: The computation.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    public convenience init(
        after delay: Duration,
        on context: ExecutionContext = .global(),
        fileID: StaticString = #fileID, line: UInt = #line,
        _ work: @escaping @Sendable () throws(Failure) -> Value
    ) {
        let timer = ExecutionContext { job in
            DispatchQueue.global().asyncAfter(deadline: .now() + delay.dispatchInterval) {
                context.execute(job)
            }
        }
        self.init(context: timer, pinned: true, fileID: fileID, line: line, work: work)
    }

    /// A pinned future's work runs only on `context`: readers wait instead of claiming it (agents
    /// and delays rely on that). Inlinable so a client specializes creation and the queued run.
    @inlinable
    init(
        context: ExecutionContext,
        pinned: Bool,
        fileID: StaticString, line: UInt,
        work: @escaping @Sendable () throws(Failure) -> Value
    ) {
        let scheduler = context.scheduler
        _scheduler = pinned ? nil : scheduler
        super.init(kind: pinned ? .pinned : .background, work: work, fileID: fileID, line: line)
        scheduler.start(self, pinned: pinned) { future in
            _ = unsafeDowncast(future, to: BackgroundFuture<Value, Failure>.self)._runClaimedWork()
        }
    }

    /// Says when a reader may run the work itself; `nil` when pinned. Strong: the context may be
    /// gone while the work waits.
    @usableFromInline let _scheduler: ContextScheduler?

    override final var _contextScheduler: ContextScheduler? { _scheduler }
}
