import Foundation
import Testing

@testable import Futures

// Cases ported from google/promises, Tests/PromisesTests/Promise+DelayTests.swift (the delayed
// value arrives; delayed futures stay alive until they resolve), with this library's choices:
// errors are delayed too, cancellation is not, and kinds are kept.
@Suite("delayed(by:)")
struct DelayTests {
    // google/promises: testPromiseDelaySuccess.
    @Test("the value arrives after the delay")
    func valueArrives() {
        let delayed = Future(value: 42).delayed(by: .milliseconds(10))
        #expect(delayed.value == 42)
    }

    @Test("the delayed future is pending until the timer fires, even when its source is resolved")
    func pendingUntilTimer() {
        let delayed = Future(value: 1).delayed(by: .seconds(600))
        #expect(!delayed.isResolved)
        #expect(delayed.result(timeout: .milliseconds(5)) == nil)
    }

    @Test("an error is delayed like a value, and reaches the readers")
    func errorArrives() {
        let delayed = Future<Int, LoadError>(failure: .unreachable(2)).delayed(by: .milliseconds(10))
        #expect(throws: LoadError.unreachable(2)) { try delayed.value }
    }

    @Test("a cancellation is not delayed")
    func cancellationAtOnce() {
        let source = Promise<Int, any Error>()
        let delayed = source.future.delayed(by: .seconds(600))
        source.future.cancel()
        #expect(delayed.isCancelled)
    }

    // google/promises: testPromiseDelayNoDeallocUntilResolved.
    @Test("delayed futures stay alive until they resolve, and are freed after")
    func aliveUntilResolved() {
        let source = Promise<Int, Never>()
        let done = Signal()
        weak var weakDelayed: Future<Int, Never>?
        do {
            let delayed = source.future.delayed(by: .milliseconds(10))
            delayed.onComplete { _ in done.send() }
            weakDelayed = delayed
        }
        #expect(weakDelayed != nil)
        source.succeed(42)
        #expect(done.wait())
        // The timer's block releases the future once it has returned.
        #expect(eventuallyHolds { weakDelayed == nil })
    }

    @Test("a lazy source's delayed future is lazy: nothing runs until it is read")
    func lazyStaysLazy() {
        let runs = Counter()
        let delayed = LazyFuture { () -> Int in
            runs.increment()
            return 3
        }.delayed(by: .milliseconds(5))
        #expect(delayed._isLazyKind)
        #expect(runs.value == 0)
        #expect(!delayed.isResolved)
        #expect(delayed.value == 3)
        #expect(runs.value == 1)
    }

    @Test("a zero delay resolves with the source")
    func zeroDelay() {
        let source = Promise<Int, Never>()
        let delayed = source.future.delayed(by: .zero)
        source.succeed(4)
        #expect(delayed.peek == .success(4))
    }
}
