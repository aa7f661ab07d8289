import Foundation
import Synchronization

/// Counts calls from any thread.
final class CallCounter: Sendable {
    private let count = Atomic<Int>(0)
    func increment() { count.wrappingAdd(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

/// An error with an identity, to check that the same failure reaches everyone.
struct TaggedError: Error, Equatable {
    let tag: Int
}

/// A semaphore-based gate: work waits on it until the test opens it.
final class CompositionGate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func wait() { semaphore.wait() }
    func open(count: Int = 1) { for _ in 0..<count { semaphore.signal() } }
}

/// A reusable barrier: `count` threads wait until all of them have arrived.
final class ThreadBarrier: @unchecked Sendable {
    // @unchecked: `arrived` and `generation` are read and written only while `condition` is locked.
    private let condition = NSCondition()
    private let count: Int
    private var arrived = 0
    private var generation = 0

    init(count: Int) { self.count = count }

    func wait() {
        condition.lock()
        defer { condition.unlock() }
        let current = generation
        arrived += 1
        if arrived == count {
            arrived = 0
            generation += 1
            condition.broadcast()
        } else {
            // Looked at again every second: a lost wake-up costs a second, never a hang.
            while generation == current { _ = condition.wait(until: Date(timeIntervalSinceNow: 1)) }
        }
    }
}

/// Runs `body(repetition, thread)` on `threads` threads, `repetitions` times; every repetition
/// starts on all threads together (a barrier), so the calls of one repetition really race.
func raceOnThreads(
    _ threads: Int,
    repetitions: Int = 1,
    prepare: @escaping @Sendable (Int) -> Void = { _ in },
    _ body: @escaping @Sendable (_ repetition: Int, _ thread: Int) -> Void
) {
    let barrier = ThreadBarrier(count: threads)
    let done = DispatchGroup()
    for index in 0..<threads {
        done.enter()
        Thread.detachNewThread {
            for repetition in 0..<repetitions {
                if index == 0 { prepare(repetition) }
                barrier.wait()
                body(repetition, index)
                barrier.wait()
            }
            done.leave()
        }
    }
    done.wait()
}
