import Foundation
import Futures
import Testing

/// The reading API every kind of future shares: `value`, `result`, `result(timeout:)`,
/// `isResolved`, `peek`.
struct FutureTests {
    @Test func everyAccessorOfAResolvedFutureGivesItsResult() {
        let promise = Promise<[String], Never>()
        promise.succeed(["a", "b"])
        let future = promise.future
        #expect(future.isResolved)
        #expect(future.peek == .success(["a", "b"]))
        #expect(future.result == .success(["a", "b"]))
        #expect(future.result(timeout: .zero) == .success(["a", "b"]))
        #expect(future.value == ["a", "b"])
    }

    @Test(.hangGuard(minutes: 5))
    func isResolvedAndPeekNeverBlockOnAPendingFuture() {
        let promise = Promise<Int, Never>()
        let held = HeldContext()
        let background = BackgroundFuture(on: held.context) { 1 }
        #expect(!promise.future.isResolved)
        #expect(promise.future.peek == nil)
        #expect(!background.isResolved)
        #expect(background.peek == nil)
        held.runAll()
        #expect(background.isResolved)
    }

    // MARK: Nil is a value

    @Test func nilIsAValueForAnOptionalFuture() {
        let future = LazyFuture { () -> Int? in nil }
        #expect(future.value == nil)
        #expect(future.isResolved)
        #expect(future.peek == .some(.success(nil)))
        #expect(future.result == .success(nil))
    }

    @Test func aPromiseCompletedWithNilIsResolved() {
        let promise = Promise<Int?, Never>()
        #expect(promise.future.peek == nil)
        #expect(promise.succeed(nil))
        #expect(!promise.succeed(5))
        #expect(promise.future.isResolved)
        #expect(promise.future.peek == .some(.success(nil)))
        #expect(promise.future.value == nil)
    }

    // MARK: The failure type follows the closure

    @Test func aNonThrowingClosureGivesAFutureThatCannotFail() {
        let lazy = LazyFuture { 21 }
        let background = BackgroundFuture { 21 }
        let lazyTyped: LazyFuture<Int, Never> = lazy
        let backgroundTyped: BackgroundFuture<Int, Never> = background
        let sum: Int = lazyTyped.value + backgroundTyped.value
        #expect(sum == 42)
    }

    @Test func genericCodeReadsANeverFailingFutureWithoutTry() {
        #expect(valueOf(LazyFuture { "generic" }) == "generic")
        #expect(valueOf(BackgroundFuture { [1, 2] as [Int] }) == [1, 2])
        let promise = Promise<Double, Never>()
        promise.succeed(0.5)
        #expect(valueOf(promise.future) == 0.5)
        #expect(resultOf(LazyFuture { 3 }) == .success(3))
    }

    @Test func aThrowsMyErrorClosureGivesAFutureThatFailsWithMyError() throws {
        let future = LazyFuture { () throws(ParseError) -> Int in throw .empty }
        let typed: LazyFuture<Int, ParseError> = future
        do throws(ParseError) {
            _ = try typed.value
            Issue.record("the future did not fail")
        } catch {
            #expect(error == .empty)
        }
        #expect(throws: ParseError.empty) { try valueOrError(future) }
    }

    @Test func aClosureWithTryGivesAFutureThatFailsWithAnyError() {
        let future = LazyFuture { try parseDigit("x") }
        let typed: LazyFuture<Int, any Error> = future
        #expect(throws: ParseError.badDigit(position: 0)) { try typed.value }
        let succeeding = BackgroundFuture { try parseDigit("7") }
        #expect((try? succeeding.value) == 7)
    }

    // MARK: Errors reach every reader

    @Test(arguments: [1, 8, 64])
    func aTypedErrorReachesEveryReaderAndTheWorkNeverReruns(readers: Int) async {
        let racers = RacingThreads(count: readers)
        for _ in 0..<50 {
            let runs = Counter()
            let future = LazyFuture { () throws(ParseError) -> Int in
                runs.increment()
                throw .badDigit(position: 3)
            }
            let seen = Collector<Result<Int, ParseError>>()
            racers.race { index in
                if index % 2 == 0 {
                    seen.append(Result { () throws(ParseError) -> Int in try future.value })
                } else {
                    seen.append(future.result)
                }
            }
            #expect(seen.all == Array(repeating: .failure(.badDigit(position: 3)), count: readers))
            await #expect(throws: ParseError.badDigit(position: 3)) { try await future.get() }
            #expect(future.peek == .failure(.badDigit(position: 3)))
            #expect(runs.value == 1)
        }
        racers.stop()
    }

    @Test func aBackgroundFuturesErrorReachesEveryAccessor() async {
        let runs = Counter()
        let future = BackgroundFuture { () throws(ParseError) -> String in
            runs.increment()
            throw .empty
        }
        #expect(readResult(future) == .failure(.empty))
        #expect(throws: ParseError.empty) { try valueOrError(future) }
        await #expect(throws: ParseError.empty) { try await future.get() }
        #expect(future.peek == .failure(.empty))
        #expect(runs.value == 1)
    }

    // MARK: Timed reads

    @Test func aTimedReadOfAPendingPromiseGivesNilThenTheValue() {
        let promise = Promise<Int, Never>()
        #expect(promise.future.result(timeout: .milliseconds(20)) == nil)
        promise.succeed(4)
        #expect(promise.future.result(timeout: .seconds(60)) == .success(4))
    }

    @Test func aTimedReadGivesNilWhileTheWorkIsHeldThenTheValue() {
        let gate = Gate()
        let started = Signal()
        let future = BackgroundFuture {
            started.send()
            gate.wait()
            return "done"
        }
        #expect(started.wait())
        #expect(future.result(timeout: .milliseconds(20)) == nil)
        gate.open()
        #expect(future.result(timeout: .seconds(60)) == .success("done"))
    }

    @Test func aTimedReadWakesWhenTheFutureResolvesDuringTheWait() {
        let promise = Promise<Int, Never>()
        let reading = Signal()
        let seen = Slot<Result<Int, Never>>()
        let finished = Signal()
        Thread.detachNewThread {
            reading.send()
            seen.value = promise.future.result(timeout: .seconds(3_600))  // stays nil on a timeout
            finished.send()
        }
        #expect(reading.wait())
        promise.succeed(8)
        #expect(finished.wait())
        #expect(seen.value == .success(8))
    }

    @Test(.hangGuard(minutes: 5))
    func aZeroOrNegativeTimeoutOnAPendingFutureGivesNilWithoutWaiting() {
        let promise = Promise<Int, Never>()
        #expect(promise.future.result(timeout: .zero) == nil)
        #expect(promise.future.result(timeout: .nanoseconds(-1)) == nil)
        #expect(promise.future.result(timeout: .seconds(-3_600)) == nil)
        let gate = Gate()
        let started = Signal()
        let background = BackgroundFuture {
            started.send()
            gate.wait()
            return 1
        }
        #expect(started.wait())
        #expect(background.result(timeout: .zero) == nil)
        #expect(background.result(timeout: .seconds(-3_600)) == nil)
        gate.open()
        #expect(background.value == 1)
    }

    @Test(.hangGuard(minutes: 5))
    func timedReadsRacingTheResolutionGiveNilOrTheValueAndAfterItTheValue() {
        let racers = RacingThreads(count: 8)
        defer { racers.stop() }
        for round in 0..<100 {
            let promise = Promise<Int, Never>()
            let seen = Collector<(early: Result<Int, Never>?, late: Result<Int, Never>?)>()
            racers.race { index in
                if index == 0 {
                    promise.succeed(round)
                } else {
                    let early = promise.future.result(timeout: .microseconds(index * 50))
                    let late = promise.future.result(timeout: .seconds(60))
                    seen.append((early, late))
                }
            }
            let results = seen.all
            #expect(results.count == 7)
            #expect(results.allSatisfy { $0.early == nil || $0.early == .success(round) })
            #expect(results.allSatisfy { $0.late == .success(round) })
        }
    }
}

// MARK: - Generic user code

/// Generic code over a future that cannot fail reads it with no `try` (docs/design.md, Reading:
/// this once crashed the compiler).
private func valueOf<T>(_ future: Future<T, Never>) -> T {
    future.value
}

private func resultOf<T>(_ future: Future<T, Never>) -> Result<T, Never> {
    future.result
}

/// Generic code over any failure type rethrows it typed.
private func valueOrError<T, E>(_ future: Future<T, E>) throws(E) -> T {
    try future.value
}

private func readResult<T, E>(_ future: Future<T, E>) -> Result<T, E> {
    future.result
}

private func parseDigit(_ text: String) throws -> Int {
    guard let digit = Int(text) else { throw ParseError.badDigit(position: 0) }
    return digit
}
