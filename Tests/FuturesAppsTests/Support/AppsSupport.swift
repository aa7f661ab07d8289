import Foundation

/// Waits, without blocking a thread, until every job already on the main dispatch queue has run:
/// main-actor deliveries queued before this call have then happened.
func drainMainQueue() async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async { done.resume() }
    }
}

/// Drains the main queue until `done` holds, or `limit` (stretched under a sanitizer) has passed.
///
/// A progress's counts reach the main actor some time after its futures resolve, not at a point
/// a reader can see: a reader may find a future resolved while the resolving thread is still
/// running the callback that counts it, and only then queues the main-actor update. One turn of
/// the main queue is then too early (a soak of 4fd96f5 beside busy processes saw 299 of 300
/// in one test and 0 of 2 in another). A test waits for the counts instead, then checks them
/// exactly.
@MainActor
func settle(limit: Duration = .seconds(60), until done: @MainActor () -> Bool) async {
    let deadline = ContinuousClock.now + hangLimit(limit)
    while !done(), ContinuousClock.now < deadline {
        await drainMainQueue()
        if !done() { try? await Task.sleep(for: .milliseconds(1)) }
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
