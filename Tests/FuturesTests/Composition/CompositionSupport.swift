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

/// Runs `body` on `count` threads at once, released together, and waits for all of them.
func raceOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        Thread.detachNewThread {
            start.wait()
            body(index)
            done.leave()
        }
    }
    for _ in 0..<count { start.signal() }
    done.wait()
}
