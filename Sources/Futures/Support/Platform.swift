import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#else
    #error("Futures runs on Linux (Glibc or Musl) and on Apple platforms; port Platform.swift to add another")
#endif

// Everything Futures asks of the OS (`PriorityBoost.swift` aside). No Foundation (it re-exports
// Glibc), so `scripts/check-darwin` checks the Darwin branches against Apple's declarations alone.

/// A thread-local retained object, released at thread exit; the key is stored plus one (0 = none).
enum ThreadLocalSlot {
    private static let keyPlusOne = Atomic<UInt>(0)

    /// The object stored for this thread, unretained; `nil` if none.
    static func load() -> UnsafeMutableRawPointer? { pthread_getspecific(key) }

    /// Stores `object` (already retained) for this thread; it is released when the thread exits.
    static func store(_ object: UnsafeMutableRawPointer) {
        let status = pthread_setspecific(key, object)
        precondition(status == 0, "Futures could not set its thread-local state (error \(status))")
    }

    private static var key: pthread_key_t {
        let stored = keyPlusOne.load(ordering: .acquiring)
        return stored != 0 ? pthread_key_t(truncatingIfNeeded: stored &- 1) : makeKey()
    }

    private static func makeKey() -> pthread_key_t {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { releaseThreadObject($0) }
        precondition(status == 0, "Futures could not create its thread-local key (error \(status))")
        let (exchanged, winner) = keyPlusOne.compareExchange(
            expected: 0, desired: UInt(key) + 1, ordering: .acquiringAndReleasing)
        if exchanged { return key }
        pthread_key_delete(key)  // another thread made the key first
        return pthread_key_t(winner - 1)
    }
}

/// Releases a thread's object at its exit: the stored reference `ThreadLocalSlot.store` took.
private func releaseThreadObject(_ object: UnsafeMutableRawPointer?) {
    if let object { Unmanaged<AnyObject>.fromOpaque(object).release() }
}

/// What a pool's monitor learns about a thread from another: CPU time, and whether it is runnable.
struct ThreadProbe: Sendable {
    #if canImport(Darwin)
        private let port: thread_act_t
    #else
        private let clock: clockid_t
        /// The kernel's id of the thread, for `/proc/self/task/<tid>/stat`; 0 if unknown.
        private let threadID: Int32
    #endif

    /// A probe of the calling thread, to be used from any thread while this one lives.
    static func ofCurrentThread() -> ThreadProbe {
        #if canImport(Darwin)
            ThreadProbe(port: pthread_mach_thread_np(pthread_self()))
        #else
            var clock = clockid_t()
            let status = pthread_getcpuclockid(pthread_self(), &clock)
            precondition(status == 0, "Futures could not get a thread's CPU clock (error \(status))")
            return ThreadProbe(clock: clock, threadID: Self.currentKernelThreadID())
        #endif
    }

    /// The CPU time the thread has used, in nanoseconds; `nil` if it cannot be read.
    func cpuNanoseconds() -> UInt64? {
        #if canImport(Darwin)
            guard let info = basicInfo() else { return nil }
            let user = UInt64(info.user_time.seconds) * 1_000_000_000 + UInt64(info.user_time.microseconds) * 1_000
            let system =
                UInt64(info.system_time.seconds) * 1_000_000_000 + UInt64(info.system_time.microseconds) * 1_000
            return user + system
        #else
            var time = timespec()
            guard clock_gettime(clock, &time) == 0 else { return nil }
            return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
        #endif
    }

    /// Whether the thread is runnable (running, or ready and waiting for a core) as opposed to
    /// blocked in the kernel; `nil` if that cannot be read.
    func isRunnable() -> Bool? {
        #if canImport(Darwin)
            guard let info = basicInfo() else { return nil }
            return info.run_state == TH_STATE_RUNNING
        #else
            guard threadID > 0 else { return nil }
            // "tid (comm) S …": the state letter follows the last ')'; comm may hold spaces or ')'.
            guard let stat = readKernelFile("/proc/self/task/\(threadID)/stat"),
                let close = stat.lastIndex(of: UInt8(ascii: ")")),
                stat.index(close, offsetBy: 2) < stat.endIndex
            else { return nil }
            return stat[stat.index(close, offsetBy: 2)] == UInt8(ascii: "R")
        #endif
    }

    #if canImport(Darwin)
        private func basicInfo() -> thread_basic_info? {
            var info = thread_basic_info()
            var count = mach_msg_type_number_t(MemoryLayout<thread_basic_info>.size / MemoryLayout<integer_t>.size)
            let status = withUnsafeMutablePointer(to: &info) { pointer in
                pointer.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
                    thread_info(port, thread_flavor_t(THREAD_BASIC_INFO), $0, &count)
                }
            }
            return status == KERN_SUCCESS ? info : nil
        }
    #else
        /// The calling thread's kernel id: the first field of `/proc/thread-self/stat`.
        private static func currentKernelThreadID() -> Int32 {
            guard let stat = readKernelFile("/proc/thread-self/stat"),
                let space = stat.firstIndex(of: UInt8(ascii: " "))
            else { return 0 }
            return Int32(String(decoding: stat[..<space], as: UTF8.self)) ?? 0
        }
    #endif
}

/// A small `/proc` file in one `read`; `nil` if unreadable (as when its thread has exited).
func readKernelFile(_ path: String, capacity: Int = 512) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: capacity)
    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count > 0 else { return nil }
    return Array(buffer[..<count])
}

/// Names the calling thread, for debuggers and `/proc/self/task/*/comm`; Linux keeps 15 bytes.
func nameCurrentThread(_ name: String) {
    #if canImport(Darwin)
        _ = pthread_setname_np(name)
    #else
        // Glibc's module lacks `pthread_setname_np` and `prctl` is variadic: write `comm`.
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    #endif
}

/// Monotonic nanoseconds (on Apple `CLOCK_UPTIME_RAW`: `CLOCK_MONOTONIC` has microseconds only).
func monotonicNanoseconds() -> UInt64 {
    #if canImport(Darwin)
        clock_gettime_nsec_np(CLOCK_UPTIME_RAW)
    #else
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    #endif
}

/// A thread's `pthread_t` as bits (an integer on Glibc, a pointer elsewhere).
struct ThreadHandle: Sendable, Hashable {
    let bits: UInt

    static var current: ThreadHandle {
        #if canImport(Glibc)
            ThreadHandle(bits: pthread_self())  // `pthread_t` is `UInt` on Glibc
        #else
            ThreadHandle(bits: UInt(bitPattern: pthread_self()))  // a pointer on Darwin and Musl
        #endif
    }

    #if canImport(Darwin)
        /// The thread, for the pthread calls that take one; valid while the thread lives.
        var thread: pthread_t { pthread_t(bitPattern: bits)! }
    #endif
}

/// A wall-clock instant, as `pthread_cond_timedwait` takes it.
struct WallClockDeadline {
    fileprivate var time: timespec

    /// `duration` from now; negative is now, and beyond 2^40 s is clamped there.
    static func after(_ duration: Duration) -> WallClockDeadline {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return WallClockDeadline(time: time) }
        time.tv_nsec += Int(attoseconds / 1_000_000_000)
        time.tv_sec += Int(min(seconds, 1 << 40)) + time.tv_nsec / 1_000_000_000
        time.tv_nsec %= 1_000_000_000
        return WallClockDeadline(time: time)
    }
}

/// A pthread mutex, adaptive on Glibc (a pool's critical sections are shorter than a sleep in the
/// kernel), waited on with `PoolWakeUp` by a pool and `StripeCondition` by the parking lot.
final class PoolLock: @unchecked Sendable {
    // @unchecked: the mutex is the synchronization; allocated once, never moved, freed in deinit.
    fileprivate let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    /// `spinning` for a pool's lock; the default mutex for a stripe's (short, seldom contended).
    init(spinning: Bool = true) {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        #if canImport(Glibc)
            if spinning { pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP)) }
        #elseif canImport(Musl) || canImport(Darwin)
            // No adaptive mutex: the default one.
        #else
            #error("PoolLock needs a mutex for this platform")
        #endif
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }

    /// Waits, lock held, for `wakeUp` (or a spurious wake); `false` if `deadline` passed first.
    func wait(for wakeUp: PoolWakeUp, until deadline: WallClockDeadline) -> Bool {
        var time = deadline.time
        return pthread_cond_timedwait(wakeUp.condition, mutex, &time) != ETIMEDOUT
    }
}

/// The condition one pool worker waits on, alone, with the pool's lock. One per worker: glibc can
/// lose a signal sent to a condition with several waiters (sourceware bug 25847, in Debian 12's
/// glibc; docs/testing.md, `scripts/condvar-lost-wakeup`).
final class PoolWakeUp: @unchecked Sendable {
    // @unchecked: the condition is the synchronization; allocated once, never moved, freed in deinit.
    fileprivate let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() { pthread_cond_init(condition, nil) }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    /// Send with the pool's lock held.
    func signal() { pthread_cond_signal(condition) }
}

/// A parking-lot stripe's condition, only ever broadcast (bug 25847 concerns `signal`). Not
/// `NSCondition`, whose class dispatch is paid twice per chain step.
final class StripeCondition: @unchecked Sendable {
    // @unchecked: the condition is the synchronization; allocated once, never moved, freed in deinit.
    fileprivate let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() { pthread_cond_init(condition, nil) }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    /// Send with the stripe's lock held.
    func broadcast() { pthread_cond_broadcast(condition) }
}

extension PoolLock {
    /// Waits, lock held, for `condition` (or a spurious wake); `false` if `deadline` passed first.
    func wait(on condition: StripeCondition, until deadline: WallClockDeadline) -> Bool {
        var time = deadline.time
        return pthread_cond_timedwait(condition.condition, mutex, &time) != ETIMEDOUT
    }
}
