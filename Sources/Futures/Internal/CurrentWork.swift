#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

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
    @usableFromInline var parent: UnsafeMutablePointer<WorkFrame>?
    /// True when this frame, or one below it, runs a background future's work: the thread is
    /// then one of the runners that `Scheduler` counts.
    @usableFromInline var isRunner: Bool

    @inlinable
    init(work: any RunningWork, isRunner: Bool) {
        self.work = work
        self.parent = nil
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
    /// The thread-local key plus one, or zero until the first use. An atomic with a constant
    /// initial value needs no lazy initialization of its own, so every push and pop does not
    /// pay a `swift_once` check, as a `static let` computed by a closure would.
    private static let keyPlusOne = Atomic<UInt>(0)

    private static var key: pthread_key_t {
        let stored = keyPlusOne.load(ordering: .acquiring)
        return stored != 0 ? pthread_key_t(stored - 1) : makeKey()
    }

    private static func makeKey() -> pthread_key_t {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "Futures could not create its thread-local key (error \(status))")
        let (exchanged, winner) = keyPlusOne.compareExchange(
            expected: 0, desired: UInt(key) + 1, ordering: .acquiringAndReleasing)
        if exchanged { return key }
        pthread_key_delete(key)  // another thread made the key first
        return pthread_key_t(winner - 1)
    }

    static var top: UnsafeMutablePointer<WorkFrame>? {
        pthread_getspecific(key)?.assumingMemoryBound(to: WorkFrame.self)
    }

    /// Links `frame` on top of this thread's chain.
    @usableFromInline
    static func push(_ frame: UnsafeMutablePointer<WorkFrame>) {
        let key = key
        let parent = pthread_getspecific(key)?.assumingMemoryBound(to: WorkFrame.self)
        frame.pointee.parent = parent
        if let parent, parent.pointee.isRunner { frame.pointee.isRunner = true }
        pthread_setspecific(key, frame)
    }

    /// Unlinks `frame`, the top of this thread's chain.
    @usableFromInline
    static func pop(_ frame: UnsafeMutablePointer<WorkFrame>) {
        pthread_setspecific(key, frame.pointee.parent)
    }

    /// Runs `body` with `work` pushed on this thread's chain.
    ///
    /// Inlinable, like the rest of the path from a lazy future's creation to its first read, so
    /// that a client specializes it for its types instead of running generic code.
    @inlinable
    static func run<R>(_ work: any RunningWork, isRunner: Bool, _ body: () -> R) -> R {
        var frame = WorkFrame(work: work, isRunner: isRunner)
        return withUnsafeMutablePointer(to: &frame) { pointer in
            push(pointer)
            defer { pop(pointer) }
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
