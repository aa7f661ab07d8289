import CooperativePoolHog
import Foundation
import Synchronization

/// The narrow-pool mode of the test process (`FUTURES_TEST_NARROW_POOL=1`, see docs/testing.md):
/// every thread of Swift's cooperative pool but one is held, for the whole run, by a task blocked
/// on a semaphore that is never signalled.
///
/// Swift Testing runs tests in parallel on the cooperative pool, which has one thread per core
/// and never adds one when they block (two threads here). A test that blocks a cooperative
/// thread while it waits for a task of its own, or that needs every pool thread at once, hangs
/// when its neighbours hold the other threads: rarely, in a normal run. In this mode it hangs
/// every time, so the mode is both the reproduction of that hang and the check that no test
/// depends on having the pool to itself.
enum NarrowPool {
    /// How many cooperative threads the mode holds; 0 when it is off.
    static let heldThreads = Atomic<Int>(0)

    static var isOn: Bool { futures_tests_narrow_pool_requested() != 0 }
}

/// Called once, from a plain thread, before the tests start (`CooperativePoolHog.c`).
@_cdecl("futures_tests_start_narrow_pool")
func startNarrowPool() {
    let width = ProcessInfo.processInfo.activeProcessorCount
    let holders = max(width - 1, 0)
    let started = DispatchSemaphore(value: 0)
    let never = DispatchSemaphore(value: 0)
    for _ in 0..<holders {
        Task.detached {
            NarrowPool.heldThreads.add(1, ordering: .relaxed)
            started.signal()
            never.wait()
        }
    }
    for _ in 0..<holders { started.wait() }
    let message = "narrow pool: \(holders) of \(width) cooperative threads held for the whole run\n"
    FileHandle.standardError.write(Data(message.utf8))
}
