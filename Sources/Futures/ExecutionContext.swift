public import Dispatch

/// Where a piece of work runs: a future's work, or a callback.
///
/// ```swift
/// let thumbnail = BackgroundFuture(on: .global(qos: .userInitiated)) { render(image) }
/// thumbnail.onSuccess(on: .main) { imageView.image = $0 }
/// let logged = ExecutionContext { work in logQueue.async(execute: work) }
/// ```
///
/// Background work should go to a context that is not Swift's cooperative pool: a blocking read
/// inside such work would park one of its few threads. Every context here is backed by Dispatch
/// or runs inline.
public struct ExecutionContext: Sendable {
    private let executeWork: @Sendable (@escaping @Sendable () -> Void) -> Void
    /// The pool that queues background futures given to this context, for the global contexts;
    /// `nil` for the others, which get one `execute` call per future.
    @usableFromInline let pool: WorkPool?

    /// A context that runs work by calling `execute`.
    ///
    /// ```swift
    /// let serial = ExecutionContext { work in myQueue.async(execute: work) }
    /// ```
    /// - Parameter execute: Runs the given work once, now or later, on any thread.
    public init(_ execute: @escaping @Sendable (_ work: @escaping @Sendable () -> Void) -> Void) {
        executeWork = execute
        pool = nil
    }

    /// A context that runs closures on `queue` one `async` each, and queues background futures
    /// in a work pool of its own whose drainers run on `queue`.
    init(poolingOn queue: DispatchQueue) {
        executeWork = { work in queue.async(execute: work) }
        pool = WorkPool(queue: queue)
    }

    /// Runs `work` on this context.
    ///
    /// ```swift
    /// ExecutionContext.global().execute { print("on a Dispatch thread") }
    /// ```
    public func execute(_ work: @escaping @Sendable () -> Void) {
        executeWork(work)
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

    /// Runs work on Dispatch's global concurrent queue of the given quality of service.
    ///
    /// Background futures given to this context do not get a Dispatch block each: they wait in
    /// a first-in first-out pool, and Dispatch threads of this queue take them one after another,
    /// starting more threads as work piles up. A thread that empties the pool stays for about
    /// 50 µs in case more work comes, so a program that makes futures one after another does
    /// not wake a sleeping thread for each. Callbacks and plain closures get a block each.
    ///
    /// ```swift
    /// let report = BackgroundFuture(on: .global(qos: .utility)) { buildReport() }
    /// ```
    public static func global(qos: DispatchQoS.QoSClass = .default) -> ExecutionContext {
        switch qos {
        case .background: GlobalContexts.background
        case .utility: GlobalContexts.utility
        case .userInitiated: GlobalContexts.userInitiated
        case .userInteractive: GlobalContexts.userInteractive
        case .default: GlobalContexts.default
        default: .queue(.global(qos: qos))
        }
    }

    /// Runs work asynchronously on `queue`.
    ///
    /// ```swift
    /// let io = DispatchQueue(label: "io")
    /// let header = BackgroundFuture(on: .queue(io)) { readHeader() }
    /// ```
    public static func queue(_ queue: DispatchQueue) -> ExecutionContext {
        ExecutionContext { work in queue.async(execute: work) }
    }
}

/// One context per global queue, made once, so that the default argument costs no allocation.
/// Each has its own work pool: background futures on a quality of service share its drainers.
private enum GlobalContexts {
    static let background = ExecutionContext(poolingOn: .global(qos: .background))
    static let utility = ExecutionContext(poolingOn: .global(qos: .utility))
    static let `default` = ExecutionContext(poolingOn: .global(qos: .default))
    static let userInitiated = ExecutionContext(poolingOn: .global(qos: .userInitiated))
    static let userInteractive = ExecutionContext(poolingOn: .global(qos: .userInteractive))
}
