import Foundation
import Testing

@testable import Futures

// Cases ported from google/promises, Tests/PromisesTests/Promise+RetryTests.swift: success after
// failed attempts, no retry after a first success, all attempts used before the last failure, the
// condition that stops early (it sees each error), the pause between attempts, and retry futures
// kept alive until they resolve. The pause lengths are checked on the schedule itself (never by a
// clock in a test); kinds and cancellation are this library's.
@Suite("Future.retry(attempts:delay:...)")
struct RetryTests {
    // google/promises: testPromiseRetryWithDefaultRetryAttemptAfterInitialReject.
    @Test("the first success after failed attempts is the result")
    func successAfterFailures() throws {
        let made = Counter()
        let retried = Future.retry(attempts: 3) { () -> Future<Int, LoadError> in
            let attempt = made.increment()
            return attempt < 3
                ? Future(failure: .unreachable(attempt)) : BackgroundFuture { () throws(LoadError) in 42 }
        }
        #expect(try retried.value == 42)
        #expect(made.value == 3)
    }

    // google/promises: testPromiseRetryNoRetryAttemptOnInitialFulfill.
    @Test("a first success makes no other attempt")
    func noRetryAfterSuccess() {
        let made = Counter()
        let retried = Future.retry(attempts: 5) { () -> Future<Int, Never> in
            made.increment()
            return BackgroundFuture { 42 }
        }
        #expect(retried.value == 42)
        #expect(made.value == 1)
    }

    // google/promises: testPromiseRetryExhaustsAllRetryAttemptsBeforeRejection.
    @Test("every attempt failing gives the last failure, after exactly `attempts` attempts")
    func exhaustsAttempts() {
        let made = Counter()
        let retried = Future.retry(attempts: 4) { () -> Future<Int, LoadError> in
            let attempt = made.increment()
            return BackgroundFuture { () throws(LoadError) -> Int in throw .unreachable(attempt) }
        }
        #expect(throws: LoadError.unreachable(4)) { try retried.value }
        #expect(made.value == 4)
    }

    // google/promises: testPromiseRetryRejectsBeforeRetryAttemptsAreExhaustedIfPredicateIsNotMet.
    @Test("the condition sees each error and stops the retries with the error it refused")
    func conditionStopsEarly() {
        let made = Counter()
        let seen = Collector<LoadError>()
        let retried = Future.retry(
            attempts: 5,
            when: { error in
                seen.append(error)
                return error != .unreachable(3)
            }
        ) { () -> Future<Int, LoadError> in
            Future(failure: .unreachable(made.increment()))
        }
        #expect(throws: LoadError.unreachable(3)) { try retried.value }
        #expect(made.value == 3)
        #expect(seen.all == [.unreachable(1), .unreachable(2), .unreachable(3)])
    }

    // google/promises: testPromiseRetryCustomDelayBeforeMakingRetryAttempt.
    @Test("with a delay, the next attempt is made only after the pause, and no attempt overlaps another")
    func delayBetweenAttempts() throws {
        let made = Counter()
        let inFlight = ConcurrencyMeter()
        let retried = Future.retry(attempts: 3, delay: .milliseconds(5)) { () -> Future<Int, LoadError> in
            let attempt = made.increment()
            return BackgroundFuture { () throws(LoadError) -> Int in
                let outcome = inFlight.measure { () -> Result<Int, LoadError> in
                    attempt < 3 ? .failure(.unreachable(attempt)) : .success(attempt)
                }
                return try outcome.get()
            }
        }
        #expect(try retried.value == 3)
        #expect(inFlight.maximum == 1)
    }

    @Test("the pauses grow by the backoff, stop at the most, and jitter only shortens them")
    func pauseSchedule() {
        let plain = RetryPauses(delay: .milliseconds(10), backoff: 1, maxDelay: nil, jitter: 0)
        #expect((1...4).map { plain.pause(after: $0) } == Array(repeating: .milliseconds(10), count: 4))
        let growing = RetryPauses(delay: .milliseconds(10), backoff: 2, maxDelay: .milliseconds(50), jitter: 0)
        #expect(
            (1...5).map { growing.pause(after: $0) }
                == [.milliseconds(10), .milliseconds(20), .milliseconds(40), .milliseconds(50), .milliseconds(50)])
        let jittered = RetryPauses(delay: .milliseconds(100), backoff: 1, maxDelay: nil, jitter: 0.5)
        for _ in 0..<200 {
            let pause = jittered.pause(after: 1)
            #expect(pause >= .milliseconds(50) && pause <= .milliseconds(100))
        }
        let none = RetryPauses(delay: .zero, backoff: 3, maxDelay: nil, jitter: 1)
        #expect(none.pause(after: 7) == .zero)
        let huge = RetryPauses(delay: .seconds(1), backoff: 10, maxDelay: nil, jitter: 0)
        #expect(huge.pause(after: 400) == .seconds(86_400))
    }

    // google/promises: testPromiseRetryNoDeallocUntilResolved.
    @Test("a retry future stays alive while its attempts run, and is freed once it resolved")
    func aliveUntilResolved() {
        let gate = Promise<Int, LoadError>()
        let done = Signal()
        weak var weakRetry: Future<Int, LoadError>?
        do {
            let retried = Future.retry(attempts: 3, delay: .milliseconds(1)) { gate.future }
            retried.onComplete { _ in done.send() }
            weakRetry = retried
        }
        #expect(weakRetry != nil)
        gate.succeed(7)
        #expect(done.wait())
        #expect(eventuallyHolds { weakRetry == nil })
    }

    @Test("100,000 attempts that fail at once cost no stack depth")
    func manyImmediateFailures() {
        let made = Counter()
        let outcome = onNewThread(stackSize: 512 << 10) { () -> Result<Int, LoadError>? in
            Future.retry(attempts: 100_000) { () -> Future<Int, LoadError> in
                let attempt = made.increment()
                return attempt < 100_000 ? Future(failure: .unreachable(attempt)) : Future(value: attempt)
            }.peek
        }
        #expect(outcome == .success(100_000))
    }

    @Test("with a lazy first attempt, the retry is lazy: nothing runs until it is read")
    func lazyRetry() throws {
        let runs = Counter()
        let retried = Future.retry(attempts: 3) {
            LazyFuture { () throws -> Int in
                if runs.increment() < 3 { throw LoadError.unreachable(0) }
                return 9
            }
        }
        #expect(retried._isLazyKind)
        #expect(runs.value == 0)
        #expect(!retried.isResolved)
        #expect(try retried.value == 9)
        #expect(runs.value == 3)
    }

    @Test("a lazy retry read from async code runs its attempts off the caller's thread")
    func lazyRetryAsync() async throws {
        let runs = Counter()
        let retried = Future.retry(attempts: 2, delay: .milliseconds(1)) {
            LazyFuture { () throws -> Int in
                if runs.increment() < 2 { throw LoadError.unreachable(0) }
                return 8
            }
        }
        #expect(try await retried.get() == 8)
    }

    @Test("cancelling the retry cancels the attempt in flight and makes no more")
    func cancellation() {
        let made = Counter()
        let attempts = Collector<Future<Int, any Error>>()
        let retried = Future.retry(attempts: 10) { () -> Future<Int, any Error> in
            made.increment()
            let attempt = Promise<Int, any Error>().future
            attempts.append(attempt)
            return attempt
        }
        #expect(made.value == 1)
        retried.cancel()
        #expect(attempts.all.allSatisfy { $0.isCancelled })
        #expect(made.value == 1)
        #expect(throws: CancellationError.self) { try retried.value }
    }

    @Test("a cancelled attempt ends the retries: the retry is cancelled")
    func cancelledAttempt() {
        let made = Counter()
        let retried = Future.retry(attempts: 10) { () -> Future<Int, any Error> in
            made.increment()
            let attempt = Promise<Int, any Error>().future
            attempt.cancel()
            return attempt
        }
        #expect(retried.isCancelled)
        #expect(made.value == 1)
    }

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("misuse traps with a message that says what to write")
        func misuse() async {
            let noAttempt = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = Future.retry(attempts: 0) { Future(value: 1) }
            }
            let noAttemptText = String(decoding: noAttempt?.standardErrorContent ?? [], as: UTF8.self)
            #expect(noAttemptText.contains("needs at least 1 attempt; it was given 0"))
            // The message points at the caller's line, not at a file inside Futures.
            #expect(noAttemptText.contains("FuturesTests/RetryTests.swift:"))
            #expect(!noAttemptText.contains("Futures/Future+Retry.swift") && !noAttemptText.contains("Misuse.swift"))
            let shrinking = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = Future.retry(attempts: 2, backoff: 0.5) { Future(value: 1) }
            }
            let shrinkingText = String(decoding: shrinking?.standardErrorContent ?? [], as: UTF8.self)
            #expect(shrinkingText.contains("multiplier of at least 1"))
            let tooRandom = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = Future.retry(attempts: 2, jitter: 2) { Future(value: 1) }
            }
            let tooRandomText = String(decoding: tooRandom?.standardErrorContent ?? [], as: UTF8.self)
            #expect(tooRandomText.contains("a share from 0 to 1"))
        }
    #endif
}
