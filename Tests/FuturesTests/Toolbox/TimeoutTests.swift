import Foundation
import Testing

@testable import Futures

// Cases ported from google/promises, Tests/PromisesTests/Promise+TimeoutTests.swift (a source that
// resolves in time, one that does not, and derived futures kept alive only until resolution),
// plus the kinds, typed errors and cancellation that this library adds.
@Suite("timeout(after:)")
struct TimeoutTests {
    // google/promises: testPromiseTimeoutSuccess.
    @Test("a source that resolves before the deadline gives its value")
    func sourceInTime() throws {
        let gate = Gate()
        let source = BackgroundFuture { () -> Int in
            gate.wait()
            return 42
        }
        let timed = source.timeout(after: .seconds(600))
        gate.open()
        #expect(try timed.value == 42)
    }

    // google/promises: testPromiseTimeoutFail.
    @Test("a source that does not resolve in time fails with FutureTimeoutError, and goes on")
    func sourceTooLate() throws {
        let source = Promise<Int, Never>()
        let timed = source.future.timeout(after: .milliseconds(20))
        #expect(throws: FutureTimeoutError.self) { try timed.value }
        guard case .failure(let error as FutureTimeoutError)? = timed.peek else {
            Issue.record("expected a FutureTimeoutError, got \(String(describing: timed.peek))")
            return
        }
        #expect(error.timeout == .milliseconds(20))
        #expect(error.site.hasPrefix("FuturesTests/TimeoutTests.swift:"))
        #expect(error.description.contains("timed out after"))
        // The source is not cancelled: it resolves later, and the timeout stays failed.
        source.succeed(42)
        #expect(source.future.value == 42)
        #expect(throws: FutureTimeoutError.self) { try timed.value }
    }

    // google/promises: testPromiseTimeoutNoDeallocUntilResolved.
    @Test("timeouts of a pending source stay alive until it resolves, and are freed then, timer or not")
    func aliveUntilResolved() {
        let source = Promise<Int, Never>()
        weak var first: Future<Int, any Error>?
        weak var second: Future<Int, any Error>?
        do {
            let a = source.future.timeout(after: .seconds(600))
            let b = source.future.timeout(after: .seconds(600))
            first = a
            second = b
        }
        #expect(first != nil && second != nil)
        source.succeed(42)
        #expect(first == nil && second == nil)
    }

    @Test("the error of the source reaches the timeout's readers")
    func sourceFailure() {
        let timed = Future<Int, LoadError>(failure: .unreachable(1)).timeout(after: .seconds(600))
        #expect(throws: LoadError.unreachable(1)) { try timed.value }
    }

    @Test("timeout(after:failingWith:) keeps a concrete error type")
    func typedTimeout() throws {
        let source = Promise<Int, LoadError>()
        let timed: Future<Int, LoadError> = source.future.timeout(after: .milliseconds(10), failingWith: .timedOut)
        #expect(throws: LoadError.timedOut) { try timed.value }
        let inTime = Future<Int, LoadError>(value: 3).timeout(after: .seconds(600), failingWith: .timedOut)
        #expect(try inTime.value == 3)
    }

    @Test("a lazy source's timeout is lazy: an unread one never runs its source nor starts its clock")
    func lazyStaysLazy() throws {
        let runs = Counter()
        let source = LazyFuture { () -> Int in
            runs.increment()
            return 5
        }
        // With a zero timeout, a clock started at creation would have failed the future already.
        let timed = source.timeout(after: .zero)
        #expect(!timed.isResolved)
        #expect(runs.value == 0)
        #expect(timed._isLazyKind)
        let longer = source.timeout(after: .seconds(600))
        #expect(!longer.isResolved)
        #expect(try longer.value == 5)
        #expect(runs.value == 1)
    }

    @Test("a blocking reader of a lazy source's timeout leaves at the deadline while the work goes on")
    func readerLeavesAtDeadline() throws {
        let gate = Gate()
        let finished = Signal()
        let source = LazyFuture { () -> Int in
            gate.wait()
            finished.send()
            return 5
        }
        let timed = source.timeout(after: .milliseconds(20))
        #expect(throws: FutureTimeoutError.self) { try timed.value }
        gate.open()
        #expect(finished.wait())
        #expect(source.value == 5)
    }

    @Test("a zero timeout gives the result of a source already resolved, and fails otherwise")
    func zeroTimeout() throws {
        #expect(try Future(value: 1).timeout(after: .zero).value == 1)
        #expect(try Future(value: 1).timeout(after: .milliseconds(-5)).value == 1)
        let pending = Promise<Int, Never>()
        #expect(throws: FutureTimeoutError.self) { try pending.future.timeout(after: .zero).value }
    }

    @Test("a huge timeout waits for the source")
    func hugeTimeout() throws {
        let source = Promise<Int, Never>()
        let timed = source.future.timeout(after: .seconds(Int64.max))
        #expect(timed.peek == nil)
        source.succeed(9)
        #expect(try timed.value == 9)
    }

    @Test("timeout(after:cancellingSource: true) cancels the source on timeout, and its work never runs")
    func cancellingSource() {
        let held = HeldContext()
        let runs = Counter()
        let source = BackgroundFuture(on: held.context) { () throws -> Int in
            runs.increment()
            return 1
        }
        let derived = source.map { $0 + 1 }
        let timed = source.timeout(after: .milliseconds(10), cancellingSource: true)
        // Read without claiming: a blocking reader walks through the timeout to the queued work
        // and may run it itself, as through any combinator (`ReaderOnInnerQueueTests`).
        #expect(throws: FutureTimeoutError.self) { try timed.result(timeout: .seconds(600))?.get() }
        #expect(source.isCancelled)
        #expect(derived.isCancelled)
        held.runAll()
        #expect(runs.value == 0)
    }

    @Test("without cancellingSource, a timeout leaves the source alone")
    func notCancellingSource() throws {
        let source = Promise<Int, any Error>()
        let timed = source.future.timeout(after: .milliseconds(10), cancellingSource: false)
        #expect(throws: FutureTimeoutError.self) { try timed.value }
        #expect(!source.future.isCancelled)
        source.succeed(2)
        #expect(try source.future.value == 2)
    }

    @Test("a cancelled source cancels its timeout")
    func cancelledSource() {
        let source = Promise<Int, any Error>()
        let timed = source.future.timeout(after: .seconds(600))
        source.future.cancel()
        #expect(timed.isCancelled)
        #expect(throws: CancellationError.self) { try timed.value }
    }

    @Test("exactly one of source and timer wins, and every reader sees the winner", arguments: 0..<50)
    func sourceRacesTimer(repetition: Int) {
        let source = Promise<Int, Never>()
        let timed = source.future.timeout(after: .microseconds(repetition * 20))
        let readers = (0..<4).map { _ in BackgroundFuture { timed.result } }
        source.succeed(repetition)
        let first = timed.result
        for reader in readers {
            switch (reader.value, first) {
            case (.success(let a), .success(let b)): #expect(a == b && b == repetition)
            case (.failure(let error), .failure): #expect(error is FutureTimeoutError)
            default: Issue.record("readers disagree: \(reader.value) and \(first)")
            }
        }
    }

    @Test("get() of a timeout suspends until the deadline without a reader thread")
    func asyncRead() async {
        let source = Promise<Int, Never>()
        await #expect(throws: FutureTimeoutError.self) {
            try await source.future.timeout(after: .milliseconds(10)).get()
        }
    }
}
