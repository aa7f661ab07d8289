import Foundation
import Testing

@testable import Futures

// The cancellable wait that Swift's own awaits give (Task.sleep, AsyncStream, TaskGroup.next),
// for futures: get() of a Future<_, any Error>, and cancellableResult() of every future.
@Suite("get() and cancellableResult() when the task is cancelled")
struct CancellableWaitTests {
    @Test("get() of a Future<_, any Error> throws CancellationError when the task is cancelled; the future goes on")
    func getThrowsOnCancellation() async throws {
        let promise = Promise<Int, any Error>()
        let waiter = Task { try await promise.future.get() }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(!promise.future.isResolved && !promise.future.isCancelled)
        promise.succeed(5)
        #expect(try await promise.future.get() == 5)
    }

    @Test("a waiter suspended in get() is resumed by cancellation")
    func suspendedWaiterResumes() async {
        let promise = Promise<Int, any Error>()
        let started = Promise<Void, Never>()
        let waiter = Task {
            started.succeed()
            return try await promise.future.get()
        }
        await started.future.get()
        // Whether the task is already suspended or about to be, the wait ends with cancellation.
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
    }

    @Test("a resolved future gives its value even in a cancelled task: only waiting is cancelled")
    func resolvedInCancelledTask() async throws {
        let future = Future<Int, any Error>(value: 3)
        let reader = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await future.get()
        }
        #expect(try await reader.value == 3)
    }

    @Test("get() is cancellable from generic code too, where Failure is any Error")
    func genericGet() async {
        func read<Failure: Error>(_ future: Future<Int, Failure>) async throws(Failure) -> Int {
            try await future.get()
        }
        let promise = Promise<Int, any Error>()
        let waiter = Task { try await read(promise.future) }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
    }

    @Test("cancellableResult() gives a future that cannot fail a cancellable wait")
    func cancellableResultOfNever() async throws {
        let promise = Promise<Int, Never>()
        let waiter = Task { try await promise.future.cancellableResult() }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        promise.succeed(1)
        let result: Result<Int, Never> = try await promise.future.cancellableResult()
        #expect(result.get() == 1)
    }

    @Test("cancellableResult() keeps a typed error in the result")
    func cancellableResultTyped() async throws {
        let failed = BackgroundFuture { () throws(LoadError) -> Int in throw .timedOut }
        let result = try await failed.cancellableResult()
        #expect(result == .failure(.timedOut))
        // The generic get() of a typed future is not cancellable and keeps its typed error.
        await #expect(throws: LoadError.timedOut) { try await failed.get() }
    }

    @Test("get() of a lazy future starts it off the task's thread, and a cancelled waiter leaves it running")
    func lazyGoesOn() async throws {
        let gate = Gate()
        let lazy = LazyFuture { () throws -> Int in
            gate.wait()
            return 8
        }
        let waiter = Task { try await lazy.get() }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        gate.open()
        #expect(try await lazy.get() == 8)
    }

    @Test("of 200 waiters, the cancelled ones throw and the others get the value", arguments: 0..<5)
    func manyWaiters(repetition: Int) async throws {
        let promise = Promise<Int, any Error>()
        let waiters = (0..<200).map { _ in Task { try await promise.future.get() } }
        for (index, waiter) in waiters.enumerated() where index % 2 == 0 { waiter.cancel() }
        for (index, waiter) in waiters.enumerated() where index % 2 == 0 {
            await #expect(throws: CancellationError.self) { try await waiter.value }
        }
        promise.succeed(repetition)
        for (index, waiter) in waiters.enumerated() where index % 2 == 1 {
            #expect(try await waiter.value == repetition)
        }
    }

    @Test("cancelling the future itself still gives its waiters CancellationError")
    func futureCancelled() async {
        let promise = Promise<Int, any Error>()
        let waiter = Task { try await promise.future.get() }
        promise.future.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
    }
}
