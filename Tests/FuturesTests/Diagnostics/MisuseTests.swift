import Foundation
import Testing

@testable import Futures

/// The misuse matrix: what happens, defined and tested, when a future is used in a way it should
/// not be (or in an edge case that is easy to get wrong).
@Suite("misuse: recursion, second completions, odd timeouts, cancelled and abandoned futures")
struct MisuseTests {
    // MARK: Recursive reads trap with the kind and the creation site

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("a lazy future that reads itself traps with its kind and creation site")
        func lazyReadsItself() async {
            let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let box = LockedBox<Future<Int, Never>?>(nil)
                let future = LazyFuture { readBlocking(box.withLock { $0 }!) + 1 }
                box.withLock { $0 = future }
                _ = readBlocking(future)
            }
            let errorText = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
            #expect(errorText.contains("LazyFuture<Int> created at FuturesTests/MisuseTests.swift:"))
            #expect(errorText.contains("was read from inside its own work"))
        }
    #endif

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("a background future that reads itself traps with its kind and creation site")
        func backgroundReadsItself() async {
            let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let box = LockedBox<Future<Int, Never>?>(nil)
                let ready = DispatchSemaphore(value: 0)
                let future = BackgroundFuture {
                    ready.wait()
                    return readBlocking(box.withLock { $0 }!) + 1
                }
                box.withLock { $0 = future }
                ready.signal()
                _ = readBlocking(future)
            }
            let errorText = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
            #expect(errorText.contains("BackgroundFuture<Int> created at FuturesTests/MisuseTests.swift:"))
            #expect(errorText.contains("was read from inside its own work"))
        }
    #endif

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("a cycle through two lazy futures traps instead of hanging")
        func lazyCycle() async {
            let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let box = LockedBox<Future<Int, Never>?>(nil)
                let first = LazyFuture { readBlocking(box.withLock { $0 }!) + 1 }
                let second = LazyFuture { readBlocking(first) + 1 }
                box.withLock { $0 = second }
                _ = readBlocking(first)
            }
            let errorText = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
            #expect(errorText.contains("was read from inside its own work"))
        }
    #endif

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("a timed read of a future from inside its own work traps too")
        func timedReadOfItself() async {
            let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let box = LockedBox<Future<Int, Never>?>(nil)
                let future = LazyFuture { () -> Int in
                    _ = box.withLock { $0 }!.result(timeout: .seconds(1))
                    return 1
                }
                box.withLock { $0 = future }
                _ = readBlocking(future)
            }
            let errorText = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
            #expect(errorText.contains("LazyFuture<Int> created at FuturesTests/MisuseTests.swift:"))
        }
    #endif

    // MARK: A second completion returns false and changes nothing

    @Test("a second completion of a promise, of any kind, returns false and leaves the value unchanged")
    func secondCompletion() throws {
        let promise = Promise<Int, any Error>()
        let callbacks = CallCounter()
        promise.future.onComplete { _ in callbacks.increment() }
        #expect(promise.succeed(1))
        #expect(!promise.succeed(2))
        #expect(!promise.fail(TaggedError(tag: 3)))
        #expect(!promise.complete(with: .success(4)))
        #expect(!promise.future.cancel())
        #expect(!promise.future.isCancelled)
        #expect(try promise.future.value == 1)
        #expect(callbacks.value == 1)

        let cancelled = Promise<Int, any Error>()
        #expect(cancelled.future.cancel())
        #expect(!cancelled.succeed(1))
        #expect(!cancelled.fail(TaggedError(tag: 1)))
        #expect(throws: CancellationError.self) { try cancelled.future.value }
    }

    @Test("16 threads completing one promise: exactly one wins and everyone reads its value, 300 times")
    func racingCompletions() {
        let repetitions = 300
        let threads = 16
        let promises = (0..<repetitions).map { _ in Promise<Int, any Error>() }
        let wins = AtomicCounters(count: repetitions * threads)
        raceOnThreads(threads, repetitions: repetitions) { repetition, thread in
            let promise = promises[repetition]
            let won =
                switch thread % 3 {
                case 0: promise.succeed(thread)
                case 1: promise.fail(TaggedError(tag: thread))
                default: promise.complete(with: .success(thread))
                }
            if won { wins[repetition * threads + thread] = 1 }
        }
        for repetition in 0..<repetitions {
            let winners = (0..<threads).filter { wins[repetition * threads + $0] == 1 }
            #expect(winners.count == 1, "repetition \(repetition)")
            guard let winner = winners.first else { continue }
            let expected: Outcome = winner % 3 == 1 ? .failed(tag: winner) : .value(winner)
            #expect(Outcome(promises[repetition].future.result) == expected, "repetition \(repetition)")
        }
    }

    // MARK: Zero and negative timeouts never wait

    @Test("a zero or negative timeout on a pending future returns nil without waiting", arguments: [0, -1, Int64.min])
    func nonPositiveTimeoutOnPendingFuture(seconds: Int64) {
        // The promise is never completed: a read that waited would never return.
        let promise = Promise<Int, Never>()
        #expect(promise.future.result(timeout: .seconds(seconds)) == nil)
        #expect(BackgroundFuture(after: .seconds(3_600)) { 1 }.result(timeout: .seconds(seconds)) == nil)
        promise.succeed(5)
        #expect(promise.future.result(timeout: .seconds(seconds)).map { $0.get() } == 5)
    }

    @Test("a zero timeout on a lazy future returns nil at once but starts its work in the background")
    func zeroTimeoutStartsLazyWork() {
        let gate = CompositionGate()
        let started = DispatchSemaphore(value: 0)
        let caller = currentThreadID()
        let ranOnCaller = LockedBox<Bool?>(nil)
        let future = LazyFuture { () -> Int in
            ranOnCaller.withLock { $0 = currentThreadID() == caller }
            started.signal()
            gate.wait()
            return 7
        }
        #expect(future.result(timeout: .zero) == nil)
        started.wait()  // the work started with no other read
        #expect(future.result(timeout: .seconds(-5)) == nil)
        gate.open()
        #expect(future.value == 7)
        #expect(ranOnCaller.withLock { $0 } == false)
    }

    @Test("a huge timeout waits as long as it takes, like a plain read", arguments: [Int64.max, 1 << 40])
    func hugeTimeout(seconds: Int64) {
        let promise = Promise<Int, Never>()
        let done = LockedBox<Int?>(nil)
        raceOnThreads(2) { _, thread in
            if thread == 0 {
                done.withLock { $0 = promise.future.result(timeout: .seconds(seconds)).map { $0.get() } }
            } else {
                // Complete only once the reader is parked (it sets the waiters bit under the lock it
                // waits with), so that the huge deadline really reaches the condition wait.
                while promise.future._state.load(ordering: .acquiring) & StateWord.waitersBit == 0 { pauseBriefly() }
                promise.succeed(8)
            }
        }
        #expect(done.withLock { $0 } == 8)
    }

    @Test("a zero or negative delay starts delayed work at once", arguments: [0, -1])
    func nonPositiveDelay(seconds: Int64) {
        #expect(BackgroundFuture(after: .seconds(seconds)) { 3 }.value == 3)
    }

    // MARK: Reading a cancelled future

    @Test("every blocking read of a cancelled future gives CancellationError at once, and so do its derived futures")
    func readingACancelledFuture() {
        let runs = CallCounter()
        let future = LazyFuture { () throws -> Int in
            runs.increment(); return 1
        }
        let child = future.map { $0 + 1 }
        #expect(future.cancel())
        #expect(future.isResolved)
        #expect(future.isCancelled)
        #expect(throws: CancellationError.self) { try future.value }
        #expect(throws: CancellationError.self) { try future.result.get() }
        #expect(throws: CancellationError.self) { try future.result(timeout: .zero)?.get() }
        #expect(throws: CancellationError.self) { try future.peek?.get() }
        let failures = LockedBox<[Bool]>([])
        future.onFailure { error in failures.withLock { $0.append(error is CancellationError) } }
        future.onSuccess { _ in Issue.record("a cancelled future called onSuccess") }
        #expect(failures.withLock { $0 } == [true])
        #expect(throws: CancellationError.self) { try child.value }
        #expect(child.isCancelled)
        #expect(throws: CancellationError.self) {
            try future.map { $0 * 2 }.flatMap { value in LazyFuture { () throws -> Int in value } }.result.get()
        }
        #expect(future.recover { error in error is CancellationError ? -1 : 0 }.value == -1)
        #expect(runs.value == 0)
    }

    @Test("get() of a cancelled future, and of a future derived from it, throws CancellationError")
    func awaitingACancelledFuture() async {
        let future = LazyFuture { () throws -> Int in 1 }
        let child = future.flatMap { value in LazyFuture { () throws -> Int in value } }
        future.cancel()
        await #expect(throws: CancellationError.self) { try await future.get() }
        await #expect(throws: CancellationError.self) { try await child.get() }
        #expect(child.isCancelled)
    }

    // MARK: A promise that is never completed

    @Test("a derived future waiting on an incomplete promise stays alive until the promise completes, then is freed")
    func abandonedDerivedFutureStaysAliveUntilResolved() {
        // Fire-and-forget chains rely on this: the callbacks that will resolve the child keep it
        // alive while the promise is pending. So a promise that is dropped without completing
        // keeps its derived futures alive for ever: complete every promise.
        let promise = Promise<Int, Never>()
        let delivered = LockedBox<[Int]>([])
        weak var weakChild: Future<Int, Never>?
        do {
            let child = promise.future.map { $0 + 1 }
            child.onSuccess { value in delivered.withLock { $0.append(value) } }
            weakChild = child
        }
        #expect(weakChild != nil)
        #expect(promise.future.result(timeout: .milliseconds(1)) == nil)
        promise.succeed(1)
        #expect(delivered.withLock { $0 } == [2])
        #expect(weakChild == nil)
    }
}
