#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the thread-local chain of running work knows about each future it runs.
protocol RunningWork: AnyObject, Sendable {
    /// Whether the future was cancelled while its work runs.
    var isCancelledWhileRunning: Bool { get }
}

/// One entry of a thread's chain of running future work. It lives on the runner's stack.
struct WorkFrame {
    unowned(unsafe) let work: any RunningWork
    let parent: UnsafeMutablePointer<WorkFrame>?
    /// True when this frame, or one below it, runs a background future's work: the thread is
    /// then one of the runners that `Scheduler` counts.
    let isRunner: Bool
}

/// The chain of future work running on the current thread, innermost first.
///
/// It answers three questions on slow paths only: is this thread inside future work (so it
/// must claim unstarted work instead of waiting, DESIGN §5.2), is it already running the
/// future it is about to wait for (recursion), and which future's cancellation does
/// `Future.isCurrentWorkCancelled` report.
enum CurrentWork {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "Futures could not create its thread-local key (error \(status))")
        return key
    }()

    static var top: UnsafeMutablePointer<WorkFrame>? {
        pthread_getspecific(key)?.assumingMemoryBound(to: WorkFrame.self)
    }

    /// Runs `body` with `work` pushed on this thread's chain.
    static func run<R>(_ work: any RunningWork, isRunner: Bool, _ body: () -> R) -> R {
        let parent = top
        var frame = WorkFrame(work: work, parent: parent, isRunner: isRunner || (parent?.pointee.isRunner ?? false))
        return withUnsafeMutablePointer(to: &frame) { pointer in
            pthread_setspecific(key, pointer)
            defer { pthread_setspecific(key, parent) }
            return body()
        }
    }

    /// Whether `work` is running on this thread, at any depth.
    static func contains(_ work: AnyObject) -> Bool {
        var frame = top
        while let current = frame {
            if current.pointee.work === work { return true }
            frame = current.pointee.parent
        }
        return false
    }

    static var isInsideWork: Bool { top != nil }

    static var isRunner: Bool { top?.pointee.isRunner ?? false }
}
