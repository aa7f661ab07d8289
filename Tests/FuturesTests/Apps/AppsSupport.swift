import Foundation

/// Waits, without blocking a thread, until every job already on the main dispatch queue has run:
/// main-actor deliveries queued before this call have then happened.
func drainMainQueue() async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async { done.resume() }
    }
}

/// Runs `body(index)` on `count` plain threads of their own at once, and resumes when every
/// call has returned; the awaiting task's thread is never blocked.
func onThreads(_ count: Int, _ body: @escaping @Sendable (_ index: Int) -> Void) async {
    let remaining = Counter()
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        for index in 0..<count {
            let thread = Thread {
                body(index)
                if remaining.increment() == count { done.resume() }
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }
}

/// Runs `body` on a plain thread of its own and returns its result without blocking the
/// awaiting task's thread: for blocking reads from async tests.
func onPlainThread<R: Sendable>(_ body: @escaping @Sendable () -> R) async -> R {
    await withCheckedContinuation { (done: CheckedContinuation<R, Never>) in
        let thread = Thread { done.resume(returning: body()) }
        thread.stackSize = 1 << 20
        thread.start()
    }
}

/// Tells whether the current code runs on the main dispatch queue, the main actor's executor
/// (on Linux, Dispatch may serve the main queue from a thread other than the process's first).
let onMainQueue = QueueMarker(.main)
