import Foundation
import Synchronization

/// A fixed set of threads that run a body all at once, round after round.
///
/// Each round wakes every thread, lets them gather at a barrier, and releases them together so
/// that they really race for the same future; `race` returns when all of them have finished.
/// The threads live for the whole test, so hundreds of rounds cost no thread creation.
///
/// Nothing here blocks on a mutex or a condition: every wait is a look at an atomic counter,
/// with `sched_yield` and then short sleeps between looks. A soak run under AddressSanitizer with
/// busy cores once stalled in the condition-based version of this helper, with one of its threads
/// asleep in the kernel, waiting to take the condition's mutex again, while no thread held it
/// (docs/testing.md, "Open: a thread not woken from a test helper's lock"). A look at a counter
/// needs no wake-up, so a wake-up lost by the platform cannot stall a test's scaffolding.
final class RacingThreads: @unchecked Sendable {
    // @unchecked: `body` is written by `race` only while no thread runs a round (before `round`
    // is published with release ordering, and after every thread has counted itself finished)
    // and read by the threads only after they load the new `round` with acquire ordering.
    let count: Int
    private var body: (@Sendable (Int) -> Void)?
    private let round = Atomic<Int>(0)
    private let arrivedCount = Atomic<Int>(0)
    private let finishedCount = Atomic<Int>(0)
    private let isStopping = Atomic<Bool>(false)
    private let exitedCount = Atomic<Int>(0)

    /// Starts `count` threads, idle until the first round.
    init(count: Int) {
        self.count = count
        for index in 0..<count {
            let thread = Thread { [self] in loop(index: index) }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Runs `body(index)` on every thread at once, with `index` in `0..<count`, and returns
    /// when every call has returned.
    func race(_ body: @escaping @Sendable (_ index: Int) -> Void) {
        self.body = body
        finishedCount.store(0, ordering: .relaxed)
        arrivedCount.store(0, ordering: .relaxed)
        round.add(1, ordering: .releasing)
        Self.waitUntil { finishedCount.load(ordering: .acquiring) == count }
        self.body = nil
    }

    /// Ends the threads and waits until they have exited. Call it once, at the end of a test.
    func stop() {
        isStopping.store(true, ordering: .releasing)
        Self.waitUntil { exitedCount.load(ordering: .acquiring) == count }
    }

    private func loop(index: Int) {
        var seenRound = 0
        while true {
            var current = 0
            Self.waitUntil {
                current = round.load(ordering: .acquiring)
                return current != seenRound || isStopping.load(ordering: .acquiring)
            }
            if current == seenRound {
                exitedCount.add(1, ordering: .releasing)
                return
            }
            seenRound = current
            let body = self.body!

            // The barrier: nobody starts until everybody is awake and here.
            arrivedCount.add(1, ordering: .sequentiallyConsistent)
            while arrivedCount.load(ordering: .sequentiallyConsistent) < count { sched_yield() }
            body(index)
            finishedCount.add(1, ordering: .releasing)
        }
    }

    /// Looks at `isDone` until it holds: first between yields, then between sleeps that grow to a
    /// millisecond, so that a thread idle between rounds costs little.
    private static func waitUntil(_ isDone: () -> Bool) {
        var looks = 0
        while !isDone() {
            looks += 1
            if looks < 1_000 {
                sched_yield()
            } else {
                usleep(UInt32(min(1_000, (looks - 1_000) * 10 + 10)))
            }
        }
    }
}
