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
/// The global contexts and ``io`` run work on Futures' own threads, never on Swift's cooperative
/// pool, so a blocking read inside a future's work holds none of async code's threads.
///
/// Make a context of your own once and keep it (a `static let`, or a property): ``queue(_:)``
/// and ``init(_:)`` contexts count their work per instance.
public struct ExecutionContext: Sendable {
    @usableFromInline let scheduler: ContextScheduler
    /// Shuts a pool made for this context down with its last copy.
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

    /// Runs work on `pool`, shut down with the context's last copy if `owned`.
    init(pool: ThreadPool, owned: Bool) {
        scheduler = ContextScheduler(runner: pool)
        owner = owned ? PoolOwner(pool) : nil
    }

    /// Runs `work` on this context.
    ///
    /// ```swift
    /// ExecutionContext.global().execute { print("on one of the global context's threads") }
    /// ```
    public func execute(_ work: @escaping @Sendable () -> Void) { scheduler.execute(work) }

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

    /// The context for background work: Futures' own threads, one computing per core, and more
    /// while some block, up to 64, for each quality of service.
    ///
    /// Work waits in a first-in first-out queue. A thread that blocks (a file, the network, a
    /// `sleep`) gives its core to the next job. Threads beyond one per core exit after 2 seconds
    /// without work.
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
    /// Each job gets a thread of its own at once, up to 256 (the rest queue), so 256 loads that
    /// each wait 100 ms take about 100 ms together. Threads beyond one per core exit after
    /// 2 seconds without work. Work that computes belongs on ``global(qos:)``.
    ///
    /// ```swift
    /// let pages = urls.map { url in BackgroundFuture(on: .io) { try Data(contentsOf: url) } }
    /// ```
    public static let io = ExecutionContext(pool: ThreadPool(.io), owned: false)

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

/// One context and pool per quality of service, made once: the default argument allocates nothing.
private enum GlobalContexts {
    static let background = ExecutionContext(pool: ThreadPool(.global(qos: .background)), owned: false)
    static let utility = ExecutionContext(pool: ThreadPool(.global(qos: .utility)), owned: false)
    static let `default` = ExecutionContext(pool: ThreadPool(.global(qos: .default)), owned: false)
    static let userInitiated = ExecutionContext(pool: ThreadPool(.global(qos: .userInitiated)), owned: false)
    static let userInteractive = ExecutionContext(pool: ThreadPool(.global(qos: .userInteractive)), owned: false)
}

extension ThreadPool.Configuration {
    static let globalMaxThreads = 64
    static let ioMaxThreads = 256
    static let builtInIdleTimeout = EngineTiming.builtInIdleTimeout

    static func global(qos: DispatchQoS.QoSClass) -> Self {
        Self(
            label: label(qos), cpuSlots: ContextScheduler.cores, maxThreads: globalMaxThreads,
            keptThreads: ContextScheduler.cores, idleTimeout: builtInIdleTimeout, detectsBlocking: true,
            qualityOfService: QualityOfService(qos))
    }

    /// Thread names; Linux keeps 15 bytes.
    static func label(_ qos: DispatchQoS.QoSClass) -> String {
        switch qos {
        case .background: "futures.bg"
        case .utility: "futures.utility"
        case .userInitiated: "futures.user"
        case .userInteractive: "futures.ui"
        default: "futures.default"
        }
    }

    /// A runner for each job, up to the bound: no monitor needed.
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
    /// Spelled out so that no platform's raw numbering is assumed.
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

/// Shuts its pool down when freed, so a context's own pool does not outlive it.
private final class PoolOwner: Sendable {
    let pool: ThreadPool
    init(_ pool: ThreadPool) { self.pool = pool }
    deinit { pool.shutDown() }
}
