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
/// The default context, ``ExecutionContext/global(qos:)``, runs one computing job per core and
/// adds threads while jobs block (file and network I/O, a `sleep`), up to 64; for many loads that
/// mostly wait, ``ExecutionContext/io`` gives each its own thread at once, up to 256.
///
/// A reader that finds the work still queued may run it on its own thread: always when the
/// reader is itself running future work (so nested and fan-out futures finish even when every
/// runner is waiting), and at top level when that keeps the number of runners within the
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
    ///   - context: Where the work runs; by default the global context.
    ///   - work: The computation. A non-throwing closure gives `Failure == Never`; a closure
    ///     with `try` gives `any Error`; `() throws(MyError) -> T in` gives `MyError`.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
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
    /// the delay ends (when `Failure` is `any Error`) means the work never runs. No thread waits
    /// for the delay: a Dispatch timer hands the work to `context`.
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
    /// the work from a queue, for its types.
    @inlinable
    init(
        context: ExecutionContext,
        pinned: Bool,
        fileID: StaticString,
        line: UInt,
        work: @escaping @Sendable () throws(Failure) -> Value
    ) {
        let scheduler = context.scheduler
        // A pinned future's readers never ask its context: only the context runs its work.
        _scheduler = pinned ? nil : scheduler
        super.init(kind: pinned ? .pinned : .background, work: work, fileID: fileID, line: line)
        if pinned {
            scheduler.execute { [self] in
                guard _claim() else { return }
                _ = scheduler.runCounted { _runClaimedWork() }
            }
        } else {
            scheduler.submit(
                .future(self) { future in
                    unsafeDowncast(future, to: BackgroundFuture<Value, Failure>.self)._runFromQueue()
                })
        }
    }

    /// The scheduler of the context the work is queued on, whose rule says when a reader may run
    /// the work itself; `nil` for a pinned future. A strong reference: the context may be gone
    /// while the work waits.
    @usableFromInline let _scheduler: ContextScheduler?

    @usableFromInline
    override final var _contextScheduler: ContextScheduler? { _scheduler }

    /// Runs the work from its context's queue, unless a reader claimed it first (the entry is
    /// then stale and does nothing).
    @inlinable
    final func _runFromQueue() {
        guard let scheduler = _scheduler, _claim() else { return }
        _ = scheduler.runCounted { _runClaimedWork() }
    }
}
