extension FutureDiagnostics {
    /// An unresolved future threads wait for, or whose work is queued: a line of
    /// ``FutureDiagnostics/waitingFutures()``.
    ///
    /// ```swift
    /// for future in FutureDiagnostics.waitingFutures() where future.waiters > 0 { print(future.creationSite) }
    /// ```
    public struct WaitingFuture: Sendable, Hashable, CustomStringConvertible {
        /// How a future resolves.
        ///
        /// ```swift
        /// let promises = FutureDiagnostics.waitingFutures().filter { $0.kind == .promise }
        /// ```
        public enum Kind: Sendable, Hashable {
            /// A ``BackgroundFuture``: its work is queued on a context, or runs.
            case background
            /// A ``BackgroundFuture`` whose work runs only on its context: readers wait, never run it.
            case pinned
            /// A ``LazyFuture``: its first blocking reader runs its work.
            case lazy
            /// The future of a ``Promise``: your code completes it.
            case promise
            /// A future derived from others (`map`, `flatMap`, `zip`, …).
            case derived
            /// A derived future that connects to its sources only when first read.
            case lazyDerived
        }

        /// Where a future is in its life.
        ///
        /// ```swift
        /// let stuck = FutureDiagnostics.waitingFutures().filter { $0.state == .running }
        /// ```
        public enum State: Sendable, Hashable {
            /// Not started, or not yet resolved by its promise or sources.
            case pending
            /// A thread runs its work (or is writing its result).
            case running
        }

        /// The future's type: "BackgroundFuture<Int>", "Future<Data, any Error>".
        public let type: String
        /// How the future resolves.
        public let kind: Kind
        /// Whether its work runs.
        public let state: State
        /// Where the future was made, as `Module/File.swift:line`.
        public let creationSite: String
        /// How many threads are parked reading it now.
        public let waiters: Int
        /// Whether the main thread is one of them.
        public let isAwaitedByMainThread: Bool
        /// For each waiting thread that runs future work, that work's future: "LazyFuture<Int> created
        /// at App/Tables.swift:12".
        public let waitingWork: [String]
        /// The label of the Futures pool whose queue holds its work ("futures.io"), or `nil`.
        public let queue: String?

        /// One line: "BackgroundFuture<Int> created at App/A.swift:3, running; 2 threads wait for it:
        /// the main thread, the work of LazyFuture<Int> created at App/B.swift:9".
        public var description: String {
            var text = type
            switch kind {
            case .promise: text += " (promise)"
            case .derived: text += " (derived)"
            case .lazyDerived: text += " (derived, lazy)"
            case .background, .pinned, .lazy: break
            }
            text += " created at \(creationSite), \(state == .pending ? "pending" : "running")"
            if kind == .pinned { text += " (pinned to its context)" }
            if let queue { text += ", queued on \(queue)" }
            guard waiters > 0 else { return text }
            text += "; \(waiters) \(waiters == 1 ? "thread waits" : "threads wait") for it"
            var who: [String] = []
            if isAwaitedByMainThread { who.append("the main thread") }
            who += waitingWork.map { "the work of \($0)" }
            if !who.isEmpty { text += ": " + who.joined(separator: ", ") }
            return text
        }
    }

    /// The unresolved futures that threads are parked reading, or whose work waits in a Futures
    /// pool's queue: readers first (most first), then queued ones (oldest first).
    ///
    /// Never blocks for long and never starts work. It does not see work queued on Dispatch or your
    /// own contexts, nor callbacks and `get()` callers (they hold no thread).
    ///
    /// ```swift
    /// for future in FutureDiagnostics.waitingFutures() { print(future) }
    /// ```
    /// - Returns: One ``WaitingFuture`` per future, each future once.
    public static func waitingFutures() -> [WaitingFuture] {
        var order: [ObjectIdentifier] = []
        var found: [ObjectIdentifier: Found] = [:]
        for parked in WaitRegistry.parkedThreads() {
            let key = ObjectIdentifier(parked.future)
            if found[key] == nil {
                order.append(key)
                found[key] = Found(future: parked.future)
            }
            found[key]?.waiters += 1
            if parked.isMainThread { found[key]?.isAwaitedByMainThread = true }
            if let work = parked.running.last { found[key]?.waitingWork.append(WaitCycle.name(work)) }
        }
        order.sort { found[$0]!.waiters > found[$1]!.waiters }
        var queued: [(future: _FutureCore, label: String)] = []
        ThreadPool.forEachLivePool { pool in
            let label = pool.configuration.label
            for future in pool.queuedFutures() { queued.append((future, label)) }
        }
        for (future, label) in queued {
            let key = ObjectIdentifier(future)
            if found[key] == nil {
                order.append(key)
                found[key] = Found(future: future)
            }
            found[key]?.queue = label
        }
        return order.compactMap { found[$0]?.snapshot() }
    }

    /// Writes ``waitingFutures()`` to standard error, one future a line.
    ///
    /// Call it from a debugger (`expr -l Swift -- import Futures; FutureDiagnostics.printWaitingFutures()`)
    /// or a signal-handling thread; it locks and allocates, so not inside a signal handler itself:
    ///
    /// ```swift
    /// signal(SIGUSR1, SIG_IGN)
    /// let dump = DispatchSource.makeSignalSource(signal: SIGUSR1, queue: .global())
    /// dump.setEventHandler { FutureDiagnostics.printWaitingFutures() }
    /// dump.resume()   // then `kill -USR1 <pid>` prints what waits
    /// ```
    /// - Parameter limit: The most futures to write; the rest are counted.
    public static func printWaitingFutures(limit: Int = 100) {
        let futures = waitingFutures()
        var text =
            futures.isEmpty ? "Futures: no future is waited for or queued\n" : "Futures waiting: \(futures.count)\n"
        for future in futures.prefix(max(0, limit)) { text += "  \(future)\n" }
        if futures.count > limit { text += "  … and \(futures.count - max(0, limit)) more\n" }
        let suspended = suspendedTasks
        if suspended > 0 { text += "  tasks suspended in get() or cancellableResult(): \(suspended)\n" }
        writeToStandardError(text)
    }

    /// How many tasks are suspended in ``Future/get()`` or ``Future/cancellableResult()``.
    ///
    /// They hold no thread, so ``waitingFutures()`` omits them. A count stuck above zero after their
    /// futures resolved means the cooperative pool has no free thread: see
    /// ``Report/Problem/blockingReadOnCooperativeThread``.
    ///
    /// ```swift
    /// print("tasks waiting for futures: \(FutureDiagnostics.suspendedTasks)")
    /// ```
    public static var suspendedTasks: Int { AsyncReaders.suspended.load(ordering: .relaxed) }

    private struct Found {
        let future: _FutureCore
        var waiters = 0
        var isAwaitedByMainThread = false
        var waitingWork: [String] = []
        var queue: String?

        init(future: _FutureCore) { self.future = future }

        /// `nil` if the future has resolved since it was seen.
        func snapshot() -> WaitingFuture? {
            let word = future._word
            let state: WaitingFuture.State
            switch word.phase {
            case .resolved: return nil
            case .pending: state = .pending
            case .running, .completing: state = .running
            }
            return WaitingFuture(
                type: future._typeDescription, kind: WaitingFuture.Kind(word.kind), state: state,
                creationSite: future._creationSite, waiters: waiters, isAwaitedByMainThread: isAwaitedByMainThread,
                waitingWork: waitingWork, queue: queue)
        }
    }
}

extension FutureDiagnostics.WaitingFuture.Kind {
    init(_ kind: FutureKind) {
        switch kind {
        case .background: self = .background
        case .pinned: self = .pinned
        case .lazy: self = .lazy
        case .promise: self = .promise
        case .derived: self = .derived
        case .lazyDerived: self = .lazyDerived
        }
    }
}
