// A stand-in for Apple's `Darwin` module, for type-checking on Linux only: never linked, never
// run (every body traps). Each declaration is written as Swift imports Apple's C declaration
// (the SDK's headers, as Xcode's generated interface shows them); see README.md for the sources
// and for what this cannot catch. Declare only what Futures and its tests use.
//
// swift-format-ignore-file
// Imported C functions are implicitly @discardableResult; so is every function here.

// MARK: C integer types (<sys/_types.h>, <mach/machine/vm_types.h>)

public typealias __darwin_natural_t = UInt32
public typealias integer_t = Int32
public typealias natural_t = __darwin_natural_t
public typealias kern_return_t = Int32
public typealias mach_port_t = __darwin_natural_t
public typealias mach_port_name_t = natural_t
public typealias thread_act_t = mach_port_t
public typealias thread_act_array_t = UnsafeMutablePointer<thread_act_t>
public typealias task_inspect_t = mach_port_t
public typealias ipc_space_t = mach_port_t
public typealias vm_map_t = mach_port_t
public typealias vm_address_t = UInt
public typealias vm_size_t = UInt
public typealias mach_msg_type_number_t = natural_t
public typealias thread_flavor_t = natural_t
public typealias thread_info_t = UnsafeMutablePointer<integer_t>
public typealias __darwin_time_t = Int
public typealias ssize_t = Int
public typealias mode_t = UInt16

// MARK: Mach (<mach/kern_return.h>, <mach/thread_info.h>, <mach/mach_init.h>, <mach/task.h>)

public var KERN_SUCCESS: Int32 { 0 }
public var THREAD_BASIC_INFO: Int32 { 3 }
public var THREAD_EXTENDED_INFO: Int32 { 5 }
public var TH_STATE_RUNNING: Int32 { 1 }
public var TH_STATE_STOPPED: Int32 { 2 }
public var TH_STATE_WAITING: Int32 { 3 }
public var TH_STATE_UNINTERRUPTIBLE: Int32 { 4 }
public var TH_STATE_HALTED: Int32 { 5 }

public struct time_value_t {
    public var seconds: integer_t
    public var microseconds: integer_t
    public init() { fatalError() }
    public init(seconds: integer_t, microseconds: integer_t) { fatalError() }
}

public struct thread_basic_info {
    public var user_time: time_value_t
    public var system_time: time_value_t
    public var cpu_usage: integer_t
    public var policy: Int32
    public var run_state: integer_t
    public var flags: integer_t
    public var suspend_count: integer_t
    public var sleep_time: integer_t
    public init() { fatalError() }
}

public struct thread_extended_info {
    public var pth_user_time: UInt64
    public var pth_system_time: UInt64
    public var pth_cpu_usage: Int32
    public var pth_policy: Int32
    public var pth_run_state: Int32
    public var pth_flags: Int32
    public var pth_sleep_time: Int32
    public var pth_curpri: Int32
    public var pth_priority: Int32
    public var pth_maxpriority: Int32
    // char pth_name[MAXTHREADNAMESIZE], MAXTHREADNAMESIZE = 64
    public var pth_name: (
        CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
        CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
        CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar,
        CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar
    )
    public init() { fatalError() }
}

@discardableResult public func thread_info(
    _ target_act: thread_act_t, _ flavor: thread_flavor_t, _ thread_info_out: thread_info_t!,
    _ thread_info_outCnt: UnsafeMutablePointer<mach_msg_type_number_t>!
) -> kern_return_t { fatalError() }

public var mach_task_self_: mach_port_t { fatalError() }

@discardableResult public func task_threads(
    _ target_task: task_inspect_t, _ act_list: UnsafeMutablePointer<thread_act_array_t?>!,
    _ act_listCnt: UnsafeMutablePointer<mach_msg_type_number_t>!
) -> kern_return_t { fatalError() }

@discardableResult public func mach_port_deallocate(_ task: ipc_space_t, _ name: mach_port_name_t) -> kern_return_t { fatalError() }

@discardableResult public func vm_deallocate(_ target_task: vm_map_t, _ address: vm_address_t, _ size: vm_size_t) -> kern_return_t {
    fatalError()
}

// MARK: pthread (<pthread/pthread.h>, <sys/_pthread/_pthread_types.h>)

public struct _opaque_pthread_t {}
public typealias pthread_t = UnsafeMutablePointer<_opaque_pthread_t>
public typealias pthread_key_t = UInt  // __darwin_pthread_key_t: unsigned long

public struct pthread_mutex_t { public init() { fatalError() } }
public struct pthread_mutexattr_t { public init() { fatalError() } }
public struct pthread_cond_t { public init() { fatalError() } }
public struct pthread_condattr_t { public init() { fatalError() } }

@discardableResult public func pthread_self() -> pthread_t { fatalError() }
@discardableResult public func pthread_mach_thread_np(_ thread: pthread_t) -> mach_port_t { fatalError() }
@discardableResult public func pthread_setname_np(_ name: UnsafePointer<CChar>) -> Int32 { fatalError() }
@discardableResult public func pthread_getspecific(_ key: pthread_key_t) -> UnsafeMutableRawPointer? { fatalError() }
@discardableResult public func pthread_setspecific(_ key: pthread_key_t, _ value: UnsafeRawPointer?) -> Int32 { fatalError() }
@discardableResult public func pthread_key_create(
    _ key: UnsafeMutablePointer<pthread_key_t>!,
    _ destructor: (@convention(c) (UnsafeMutableRawPointer) -> Void)?
) -> Int32 { fatalError() }
@discardableResult public func pthread_key_delete(_ key: pthread_key_t) -> Int32 { fatalError() }

@discardableResult public func pthread_mutexattr_init(_ attr: UnsafeMutablePointer<pthread_mutexattr_t>!) -> Int32 { fatalError() }
@discardableResult public func pthread_mutexattr_destroy(_ attr: UnsafeMutablePointer<pthread_mutexattr_t>!) -> Int32 { fatalError() }
@discardableResult public func pthread_mutexattr_settype(_ attr: UnsafeMutablePointer<pthread_mutexattr_t>!, _ type: Int32) -> Int32 {
    fatalError()
}
@discardableResult public func pthread_mutex_init(
    _ mutex: UnsafeMutablePointer<pthread_mutex_t>!, _ attr: UnsafePointer<pthread_mutexattr_t>!
) -> Int32 { fatalError() }
@discardableResult public func pthread_mutex_destroy(_ mutex: UnsafeMutablePointer<pthread_mutex_t>!) -> Int32 { fatalError() }
@discardableResult public func pthread_mutex_lock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>!) -> Int32 { fatalError() }
@discardableResult public func pthread_mutex_unlock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>!) -> Int32 { fatalError() }
@discardableResult public func pthread_mutex_trylock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>!) -> Int32 { fatalError() }
@discardableResult public func pthread_cond_init(
    _ cond: UnsafeMutablePointer<pthread_cond_t>!, _ attr: UnsafePointer<pthread_condattr_t>!
) -> Int32 { fatalError() }
@discardableResult public func pthread_cond_destroy(_ cond: UnsafeMutablePointer<pthread_cond_t>!) -> Int32 { fatalError() }
@discardableResult public func pthread_cond_signal(_ cond: UnsafeMutablePointer<pthread_cond_t>!) -> Int32 { fatalError() }
@discardableResult public func pthread_cond_broadcast(_ cond: UnsafeMutablePointer<pthread_cond_t>!) -> Int32 { fatalError() }
@discardableResult public func pthread_cond_wait(
    _ cond: UnsafeMutablePointer<pthread_cond_t>!, _ mutex: UnsafeMutablePointer<pthread_mutex_t>!
) -> Int32 { fatalError() }
@discardableResult public func pthread_cond_timedwait(
    _ cond: UnsafeMutablePointer<pthread_cond_t>!, _ mutex: UnsafeMutablePointer<pthread_mutex_t>!,
    _ abstime: UnsafePointer<timespec>!
) -> Int32 { fatalError() }

// MARK: Quality of service (<sys/qos.h>, <pthread/qos.h>)

public struct qos_class_t: RawRepresentable, Equatable, Hashable {
    public var rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}
public var QOS_CLASS_USER_INTERACTIVE: qos_class_t { qos_class_t(0x21) }
public var QOS_CLASS_USER_INITIATED: qos_class_t { qos_class_t(0x19) }
public var QOS_CLASS_DEFAULT: qos_class_t { qos_class_t(0x15) }
public var QOS_CLASS_UTILITY: qos_class_t { qos_class_t(0x11) }
public var QOS_CLASS_BACKGROUND: qos_class_t { qos_class_t(0x09) }
public var QOS_CLASS_UNSPECIFIED: qos_class_t { qos_class_t(0x00) }

@discardableResult public func qos_class_self() -> qos_class_t { fatalError() }

public typealias pthread_override_t = OpaquePointer  // struct pthread_override_s *
@discardableResult public func pthread_override_qos_class_start_np(
    _ thread: pthread_t, _ qos_class: qos_class_t, _ relative_priority: Int32
) -> pthread_override_t! { fatalError() }
@discardableResult public func pthread_override_qos_class_end_np(_ override: pthread_override_t) -> Int32 { fatalError() }

// MARK: Time (<time.h>, <sys/_types/_timespec.h>)

public struct timespec {
    public var tv_sec: __darwin_time_t
    public var tv_nsec: Int
    public init() { fatalError() }
    public init(tv_sec: __darwin_time_t, tv_nsec: Int) { fatalError() }
}

public struct clockid_t: RawRepresentable, Equatable, Hashable {
    public var rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}
public var _CLOCK_REALTIME: clockid_t { clockid_t(0) }
public var _CLOCK_MONOTONIC: clockid_t { clockid_t(6) }
public var _CLOCK_UPTIME_RAW: clockid_t { clockid_t(8) }
public var CLOCK_REALTIME: clockid_t { _CLOCK_REALTIME }
public var CLOCK_MONOTONIC: clockid_t { _CLOCK_MONOTONIC }
public var CLOCK_UPTIME_RAW: clockid_t { _CLOCK_UPTIME_RAW }

@discardableResult public func clock_gettime(_ __clock_id: clockid_t, _ __tp: UnsafeMutablePointer<timespec>!) -> Int32 { fatalError() }
@discardableResult public func clock_gettime_nsec_np(_ __clock_id: clockid_t) -> UInt64 { fatalError() }

// MARK: Files and errors (<fcntl.h>, <unistd.h>, <sys/errno.h>)

public var O_RDONLY: Int32 { 0x0000 }
public var O_WRONLY: Int32 { 0x0001 }
public var O_CLOEXEC: Int32 { 0x0100_0000 }
public var ETIMEDOUT: Int32 { 60 }

// `open` is variadic in C; Apple's Darwin overlay gives Swift these two.
@discardableResult public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32 { fatalError() }
@discardableResult public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t) -> Int32 { fatalError() }
@discardableResult public func close(_ fd: Int32) -> Int32 { fatalError() }
@discardableResult public func read(_ fd: Int32, _ buf: UnsafeMutableRawPointer!, _ nbyte: Int) -> Int { fatalError() }
@discardableResult public func write(_ fd: Int32, _ buf: UnsafeRawPointer!, _ nbyte: Int) -> Int { fatalError() }

// MARK: Dynamic loading (<dlfcn.h>; RTLD_DEFAULT from the Darwin overlay)

@discardableResult public func dlsym(_ __handle: UnsafeMutableRawPointer!, _ __symbol: UnsafePointer<CChar>!) -> UnsafeMutableRawPointer! {
    fatalError()
}
public var RTLD_DEFAULT: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: -2) }
