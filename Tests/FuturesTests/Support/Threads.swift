import Foundation

@testable import Futures

/// Runs `body` on a thread of its own — not a Dispatch worker, not a cooperative thread — and
/// returns its result when it finishes.
///
/// Tests use it for readers that must be "top level" (outside any future's work and outside
/// Swift concurrency), and for deep recursion that needs a known stack size.
func onNewThread<R: Sendable>(stackSize: Int = 16 << 20, _ body: @escaping @Sendable () -> R) -> R {
    let result = Slot<R>()
    let finished = DispatchSemaphore(value: 0)
    let thread = Thread {
        result.value = body()
        finished.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    finished.wait()
    return result.value!
}

/// The calling thread's identity (its `pthread_t`'s bits), comparable across threads.
func currentThreadID() -> UInt {
    ThreadHandle.current.bits
}

/// A thread of its own that spins until `condition` holds and then records `observe()`: it
/// looks at the state of things the instant the condition becomes true.
final class Watcher<Observation: Sendable>: Sendable {
    private let result = Slot<Observation>()
    private let finished = DispatchSemaphore(value: 0)

    init(until condition: @escaping @Sendable () -> Bool, then observe: @escaping @Sendable () -> Observation) {
        Thread.detachNewThread { [result, finished] in
            while !condition() {}
            result.value = observe()
            finished.signal()
        }
    }

    /// Waits for the watcher's observation; call it once the condition is known to hold.
    func observation() -> Observation? {
        finished.wait()
        return result.value
    }
}

/// The text of a small file of the kernel's (`/proc/self/…`), or `nil` if it cannot be read
/// (a thread's files vanish when it exits); the engine's own reader, given a page. Not
/// Foundation's `String(contentsOfFile:)`, which once leaked its 4 KiB read buffer reading a pool
/// thread's `stat` file under AddressSanitizer, most likely as the thread exited, and
/// LeakSanitizer failed the run.
func readKernelText(_ path: String) -> String? {
    readKernelFile(path, capacity: 4096).map { String(decoding: $0, as: UTF8.self) }
}
