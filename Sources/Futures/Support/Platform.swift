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

// Everything Futures asks of the operating system directly, in one file: the thread-local slot
// behind `ThreadState`, a thread pool's lock, and the probes with which a thread pool's monitor
// tells a blocked runner from a computing one. The rest of the module imports no C library
// (`PriorityBoost.swift`, Apple's thread priorities, aside). This file does not import Foundation,
// which re-exports Glibc on Linux, so that `scripts/check-darwin` type-checks its Darwin branches
// against Apple's declarations alone.

/// One thread-local slot that holds a retained object per thread, released when the thread exits.
///
/// A pthread key owns the object: its destructor releases it when the thread exits (the C library
/// has cleared the key's value by then, so a later destructor that uses futures makes a new
/// object, which the C library releases in its next pass). The key is made on first use and kept in a
/// statically initialized atomic, as a value plus one, zero meaning "not yet".
enum ThreadLocalSlot {
    private static let keyPlusOne = Atomic<UInt>(0)

    /// The object stored for this thread, unretained; `nil` if none.
    static func load() -> UnsafeMutableRawPointer? {
        pthread_getspecific(key)
    }

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
        let status = pthread_key_create(&key, releaseThreadObject)
        precondition(status == 0, "Futures could not create its thread-local key (error \(status))")
        let (exchanged, winner) = keyPlusOne.compareExchange(
            expected: 0, desired: UInt(key) + 1, ordering: .acquiringAndReleasing)
        if exchanged { return key }
        pthread_key_delete(key)  // another thread made the key first
        return pthread_key_t(winner - 1)
    }
}

#if canImport(Darwin)
    private let releaseThreadObject: @convention(c) (UnsafeMutableRawPointer) -> Void = { object in
        Unmanaged<AnyObject>.fromOpaque(object).release()
    }
#else
    private let releaseThreadObject: @convention(c) (UnsafeMutableRawPointer?) -> Void = { object in
        if let object { Unmanaged<AnyObject>.fromOpaque(object).release() }
    }
#endif

/// What a thread pool's monitor can learn about one of its threads from another thread: how much
/// CPU time it has used, and whether the scheduler sees it as runnable (computing, or waiting only
/// for a core) rather than blocked.
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

/// The first `capacity` bytes of a small file of the kernel's (`/proc/…`), read with one system
/// call (the kernel hands such a file over whole when it fits); `nil` if it cannot be read, as
/// when the thread it describes has exited.
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
        // Glibc's module does not export `pthread_setname_np`, and `prctl` is variadic; writing the
        // thread's own `comm` file does the same.
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    #endif
}

/// Monotonic time in nanoseconds, cheap enough for a monitor's tick.
///
/// On Apple platforms `CLOCK_UPTIME_RAW` through `clock_gettime_nsec_np`, the native clock (Mach
/// absolute time, which does not advance while the device sleeps; `CLOCK_MONOTONIC` there has
/// microsecond resolution only); elsewhere `CLOCK_MONOTONIC`.
func monotonicNanoseconds() -> UInt64 {
    #if canImport(Darwin)
        clock_gettime_nsec_np(CLOCK_UPTIME_RAW)
    #else
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    #endif
}

/// A thread's identity as the OS knows it (`pthread_t`), storable and comparable across threads.
struct ThreadHandle: Sendable, Hashable {
    /// The `pthread_t` as a bit pattern: an integer on Linux, a pointer on Apple platforms.
    let bits: UInt

    /// The calling thread.
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

/// An instant of the wall clock, as `pthread_cond_timedwait` takes it.
struct WallClockDeadline {
    fileprivate var time: timespec

    /// The instant `duration` from now; a negative duration is now, and one beyond 2^40 seconds
    /// (some 35,000 years) is that far.
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

/// A thread pool's lock: a pthread mutex that, on Linux, spins a moment before it sleeps when it
/// finds the lock taken (glibc's adaptive mutex). Its workers wait for a wake-up each on a
/// condition of its own (`PoolWakeUp`), with this lock. The parking lot's stripes use it too, with
/// a `StripeCondition`.
///
/// A pool's lock is held for a few dozen instructions at a time, by the submitting thread and by
/// each worker once per job: a thread that sleeps in the kernel when it finds it taken pays more
/// than the critical section it waits for. Spinning first lets the holder leave instead.
final class PoolLock: @unchecked Sendable {
    // @unchecked: the mutex is the synchronization; its storage is allocated once, never moved,
    // and freed in deinit, when no thread can use it.
    fileprivate let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    /// A lock that spins a moment first (`spinning`, a pool's), or the default mutex (a
    /// parking-lot stripe's: held for a few instructions, and seldom contended).
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

    /// Takes the lock if it is free; returns `false` at once if another thread holds it.
    func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }

    /// Waits until `wakeUp` is signalled (or spuriously) or `deadline` passes; returns `false` if
    /// the deadline passed first. Called and returns with the lock held.
    func wait(for wakeUp: PoolWakeUp, until deadline: WallClockDeadline) -> Bool {
        var time = deadline.time
        return pthread_cond_timedwait(wakeUp.condition, mutex, &time) != ETIMEDOUT
    }
}

/// The condition one worker of a thread pool waits on, with the pool's lock, and only that
/// worker: a wake-up is sent to the worker chosen for it, never to whichever waiter the
/// condition picks.
///
/// Why one condition per worker and not one per pool: glibc's condition variable can lose a
/// `pthread_cond_signal` sent to a condition that several threads wait on (sourceware bug 25847,
/// fixed upstream in 2025; Debian 12's glibc 2.36 has it): a waiter of an older group takes a
/// signal, then gives it back to a group that changed meanwhile, and no waiter wakes. A pool
/// whose idle workers all waited on one condition was seen, under AddressSanitizer with busy
/// cores, with work queued, two wake-ups counted, and both its idle workers asleep in
/// `pthread_cond_wait` for minutes (docs/testing.md, "Queued work not taken by idle workers";
/// `scripts/condvar-lost-wakeup` stresses both patterns). A condition with one waiter at a time
/// has no older group to take a signal from.
final class PoolWakeUp: @unchecked Sendable {
    // @unchecked: the condition is the synchronization; its storage is allocated once, never
    // moved, and freed in deinit, when no thread waits on it.
    fileprivate let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() { pthread_cond_init(condition, nil) }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    /// Wakes the worker waiting on this condition, if it waits; send it with the pool's lock held.
    func signal() { pthread_cond_signal(condition) }
}

/// A parking-lot stripe's condition: every reader parked on the stripe's futures waits on it,
/// with the stripe's lock (a `PoolLock`), and it is only ever broadcast.
///
/// Why not `NSCondition`: each lock and unlock goes through Foundation's class first, twice per
/// step of a chain. Why not `PoolWakeUp`: that one has one waiter at a time, and is signalled,
/// never broadcast (glibc's lost `pthread_cond_signal`, sourceware bug 25847,
/// concerns a signal among several waiters, which a broadcast does not have).
final class StripeCondition: @unchecked Sendable {
    // @unchecked: the condition is the synchronization; its storage is allocated once, never
    // moved, and freed in deinit, when no thread waits on it.
    fileprivate let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() { pthread_cond_init(condition, nil) }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    /// Wakes every thread waiting on it; send it with the stripe's lock held.
    func broadcast() { pthread_cond_broadcast(condition) }
}

extension PoolLock {
    /// Waits until `condition` is broadcast (or spuriously) or `deadline` passes; returns `false`
    /// if the deadline passed first. Called and returns with the lock held.
    func wait(on condition: StripeCondition, until deadline: WallClockDeadline) -> Bool {
        var time = deadline.time
        return pthread_cond_timedwait(condition.condition, mutex, &time) != ETIMEDOUT
    }
}
