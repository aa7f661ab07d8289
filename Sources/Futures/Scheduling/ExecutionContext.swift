public import Dispatch
import Foundation

/// Where a piece of work runs: a future's work, or a callback.
///
/// ```swift
/// let thumbnail = BackgroundFuture(on: .global(qos: .userInitiated)) { render(image) }
/// thumbnail.onSuccess(on: .main) { imageView.image = $0 }
/// let logged = ExecutionContext { work in logQueue.async(execute: work) }
/// ```
///
/// Each context has its own scheduling: the queue or threads it runs work on, and the counts
/// behind the rule for when a blocked reader runs queued background work itself. The global
/// contexts and ``io`` run work on threads of Futures' own, never on Swift's cooperative pool, so
/// a blocking read inside a future's work holds none of the few threads async code runs on.
///
/// Make a context of your own once and keep it (a `static let`, or a property of the object
/// that uses it), as ``queue(_:)`` and ``init(_:)`` contexts count their work per instance: two
/// contexts made on the same queue each count only their own.
public struct ExecutionContext: Sendable {
    /// The context's scheduling: a thread pool, or a closure's owner.
    @usableFromInline let scheduler: ContextScheduler
    /// Shuts a pool made for this context down when the last copy of the context is gone; `nil`
    /// for the contexts that live for the whole process and for closure contexts.
    private let owner: PoolOwner?

    /// A context that runs work by calling `execute`.
    ///
    /// ```swift
    /// let serial = ExecutionContext { work in myQueue.async(execute: work) }
    /// ```
    /// - Parameter execute: Runs the given work once, now or later, on any thread.
    public init(_ execute: @escaping @Sendable (_ work: @escaping @Sendable () -> Void) -> Void) {
        scheduler = ContextScheduler(runner: ClosureScheduler(execute))
        owner = nil
    }

    /// A context that runs work on `pool`, which it shuts down when its last copy is gone if
    /// `owned`.
    init(pool: ThreadPool, owned: Bool) {
        scheduler = ContextScheduler(runner: pool)
        owner = owned ? PoolOwner(pool) : nil
    }

    /// A built-in context, made once in a `static let`: its scheduler and pool live as long as the
    /// process.
    init(livingForeverOn pool: ThreadPool) {
        scheduler = ContextScheduler(runner: pool)
        owner = nil
    }

    /// Runs `work` on this context.
    ///
    /// ```swift
    /// ExecutionContext.global().execute { print("on one of the global context's threads") }
    /// ```
    public func execute(_ work: @escaping @Sendable () -> Void) {
        scheduler.execute(work)
    }

    /// Runs work at once, on the thread that hands it over.
    ///
    /// ```swift
    /// future.onComplete(on: .immediate) { print($0) }   // on the resolving thread
    /// ```
    public static let immediate = ExecutionContext { work in work() }

    /// Runs work on the main dispatch queue.
    ///
    /// ```swift
    /// image.onSuccess(on: .main) { view.show($0) }
    /// ```
    /// - Important: The main queue runs only while the main thread serves it (an app's run
    ///   loop, or `dispatchMain()` in a command-line tool).
    public static let main = ExecutionContext.queue(.main)

    /// The context for background work: threads of Futures' own, one computing per core, and
    /// more while some block, up to 64, for each quality of service.
    ///
    /// Work that computes keeps one thread per core busy and waits in a first-in first-out queue
    /// for the rest. Work that blocks — reading a file, waiting on the network or a database, a
    /// `sleep` — does not hold the parallelism to the number of cores: a monitor looks at the
    /// running threads every millisecond while work waits, and when one has not been computing
    /// (its CPU time hardly moved and the kernel says it is not runnable), its core goes to the
    /// next job, on another thread. A thread parked reading a future gives its core up at once.
    /// There are never more than 64 threads, however many futures wait; threads beyond one per
    /// core exit after 2 seconds without work. Jobs of a few microseconds or less, which a second
    /// core only slows down, run on one thread while it gets through as many.
    ///
    /// ```swift
    /// let report = BackgroundFuture(on: .global(qos: .utility)) { buildReport() }
    /// ```
    /// For many loads that mostly wait, ``io`` starts a thread for each at once, up to 256.
    public static func global(qos: DispatchQoS.QoSClass = .default) -> ExecutionContext {
        switch qos {
        case .background: GlobalContexts.background
        case .utility: GlobalContexts.utility
        case .userInitiated: GlobalContexts.userInitiated
        case .userInteractive: GlobalContexts.userInteractive
        default: GlobalContexts.default
        }
    }

    /// The context for work that mostly waits: file and network I/O, database calls, processes.
    ///
    /// It does not wait to see that its threads block: it gives each job a thread of its own at
    /// once, up to 256 at a time (the rest wait in a first-in first-out queue), so 256 loads that
    /// each wait 100 ms take about 100 ms together. Threads beyond one per core exit after
    /// 2 seconds without work. Work that computes belongs on ``global(qos:)``: on this context it
    /// would run on more threads than there are cores.
    ///
    /// ```swift
    /// let pages = urls.map { url in BackgroundFuture(on: .io) { try Data(contentsOf: url) } }
    /// ```
    public static let io = ExecutionContext(livingForeverOn: ThreadPool(.io))

    /// Runs work asynchronously on `queue`.
    ///
    /// ```swift
    /// let serial = DispatchQueue(label: "serial")
    /// let header = BackgroundFuture(on: .queue(serial)) { readHeader() }
    /// ```
    public static func queue(_ queue: DispatchQueue) -> ExecutionContext {
        ExecutionContext { work in queue.async(execute: work) }
    }
}

/// One context per quality of service, made once, so that the default argument costs no
/// allocation. Each has its own thread pool.
private enum GlobalContexts {
    static let background = ExecutionContext(livingForeverOn: ThreadPool(.global(qos: .background)))
    static let utility = ExecutionContext(livingForeverOn: ThreadPool(.global(qos: .utility)))
    static let `default` = ExecutionContext(livingForeverOn: ThreadPool(.global(qos: .default)))
    static let userInitiated = ExecutionContext(livingForeverOn: ThreadPool(.global(qos: .userInitiated)))
    static let userInteractive = ExecutionContext(livingForeverOn: ThreadPool(.global(qos: .userInteractive)))
}

extension ThreadPool.Configuration {
    /// The bound on a global context's threads.
    static let globalMaxThreads = 64
    /// The bound on the I/O context's threads.
    static let ioMaxThreads = 256
    /// How long an extra thread of the built-in pools waits for work before it exits.
    static let builtInIdleTimeout = EngineTiming.builtInIdleTimeout

    /// A global context's pool: one computing runner per core, more while some block.
    static func global(qos: DispatchQoS.QoSClass) -> Self {
        Self(
            label: label(qos), cpuSlots: ContextScheduler.cores, maxThreads: globalMaxThreads,
            keptThreads: ContextScheduler.cores, idleTimeout: builtInIdleTimeout, detectsBlocking: true,
            qualityOfService: QualityOfService(qos))
    }

    /// The names of the built-in pools' threads, which Linux cuts to 15 bytes.
    static func label(_ qos: DispatchQoS.QoSClass) -> String {
        switch qos {
        case .background: "futures.bg"
        case .utility: "futures.utility"
        case .userInitiated: "futures.user"
        case .userInteractive: "futures.ui"
        default: "futures.default"
        }
    }

    /// The I/O context's pool: a runner for each job, up to the bound.
    static let io = Self(
        label: "futures.io", cpuSlots: ioMaxThreads, maxThreads: ioMaxThreads, keptThreads: ContextScheduler.cores,
        idleTimeout: builtInIdleTimeout, detectsBlocking: false)
}

extension QualityOfService {
    init(_ qos: DispatchQoS.QoSClass) {
        switch qos {
        case .background: self = .background
        case .utility: self = .utility
        case .userInitiated: self = .userInitiated
        case .userInteractive: self = .userInteractive
        default: self = .default
        }
    }
}

extension ThreadQoS {
    /// The QoS class of threads that run at `qualityOfService` (Foundation gives both Apple's raw
    /// values; spelled out so that no platform's numbering is assumed).
    init(_ qualityOfService: QualityOfService) {
        switch qualityOfService {
        case .background: self = .background
        case .utility: self = .utility
        case .userInitiated: self = .userInitiated
        case .userInteractive: self = .userInteractive
        default: self = .default
        }
    }
}

/// Shuts its pool down when freed: what keeps a pool made for one context from outliving it.
private final class PoolOwner: Sendable {
    let pool: ThreadPool
    init(_ pool: ThreadPool) { self.pool = pool }
    deinit { pool.shutDown() }
}
