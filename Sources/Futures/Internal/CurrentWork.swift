#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the thread-local chain of running work knows about each future it runs.
@usableFromInline
protocol RunningWork: AnyObject, Sendable {
    /// Whether the future was cancelled while its work runs.
    var isCancelledWhileRunning: Bool { get }
}

/// One entry of a thread's chain of running future work. It lives on the runner's stack.
@usableFromInline
struct WorkFrame {
    @usableFromInline unowned(unsafe) let work: any RunningWork
    @usableFromInline let parent: UnsafeMutablePointer<WorkFrame>?
    /// True when this frame, or one below it, runs a background future's work: the thread is
    /// then one of the runners that `Scheduler` counts.
    @usableFromInline let isRunner: Bool

    @inlinable
    init(work: any RunningWork, parent: UnsafeMutablePointer<WorkFrame>?, isRunner: Bool) {
        self.work = work
        self.parent = parent
        self.isRunner = isRunner
    }
}

/// The chain of future work running on the current thread, innermost first.
///
/// It answers three questions on slow paths only: is this thread inside future work (so it
/// must claim unstarted work instead of waiting, DESIGN §5.2), is it already running the
/// future it is about to wait for (recursion), and which future's cancellation does
/// `Future.isCurrentWorkCancelled` report.
@usableFromInline
enum CurrentWork {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "Futures could not create its thread-local key (error \(status))")
        return key
    }()

    @usableFromInline
    static var top: UnsafeMutablePointer<WorkFrame>? {
        get { pthread_getspecific(key)?.assumingMemoryBound(to: WorkFrame.self) }
        set { pthread_setspecific(key, newValue) }
    }

    /// Runs `body` with `work` pushed on this thread's chain.
    ///
    /// Inlinable, like the rest of the path from a lazy future's creation to its first read, so
    /// that a client specializes it for its types instead of running generic code.
    @inlinable
    static func run<R>(_ work: any RunningWork, isRunner: Bool, _ body: () -> R) -> R {
        let parent = top
        var frame = WorkFrame(work: work, parent: parent, isRunner: isRunner || (parent?.pointee.isRunner ?? false))
        return withUnsafeMutablePointer(to: &frame) { pointer in
            top = pointer
            defer { top = parent }
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
