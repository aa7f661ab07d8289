import Foundation
import Testing

@testable import Futures

// Cases ported from PromiseKit, Tests/CorePromise/RaceTests.swift (race(fulfilled:): the first
// value wins over earlier failures, no input is an error, no winner fails), with promises
// completed in the order the peer's timers fire instead of timers.
@Suite("Future.firstSuccess(of:)")
struct FirstSuccessTests {
    // PromiseKit: testFulfilled.
    @Test("the first value wins, whatever failed before it")
    func firstValueWins() throws {
        let promises = (0..<5).map { _ in Promise<Int, LoadError>() }
        let winner = Future.firstSuccess(of: promises.map(\.future))
        promises[0].fail(.unreachable(1))
        promises[1].fail(.unreachable(2))
        promises[4].fail(.unreachable(3))
        #expect(winner.peek == nil)
        promises[3].succeed(2)
        promises[2].succeed(1)
        #expect(try winner.value == 2)
    }

    // PromiseKit: testFulfilledWithNoWinner.
    @Test("if every future fails, the error is the last to arrive")
    func noWinner() {
        let promises = (0..<3).map { _ in Promise<Int, LoadError>() }
        let winner = Future.firstSuccess(of: promises.map(\.future))
        promises[2].fail(.unreachable(2))
        promises[0].fail(.unreachable(0))
        #expect(winner.peek == nil)
        promises[1].fail(.unreachable(1))
        #expect(throws: LoadError.unreachable(1)) { try winner.value }
    }

    // PromiseKit: testFulfilledEmptyArray.
    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("no futures is a misuse with a message")
        func emptyInput() async {
            let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = Future<Int, Never>.firstSuccess(of: [])
            }
            let errorText = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
            #expect(errorText.contains("Future.firstSuccess(of:) needs at least one future; it was given none"))
            // The message points at the caller's line, not at a file inside Futures.
            #expect(errorText.contains("FuturesTests/FirstSuccessTests.swift:"))
            #expect(!errorText.contains("Futures/Future+Racing.swift") && !errorText.contains("Misuse.swift"))
        }
    #endif

    // PromiseKit: test1Array and test2Array (race), for the firstSuccess flavour.
    @Test("whichever succeeds first wins, the other is ignored", arguments: [0, 1])
    func eitherOrder(first: Int) throws {
        let promises = (0..<2).map { _ in Promise<Int, Never>() }
        let winner = Future.firstSuccess(of: promises.map(\.future))
        promises[first].succeed(first)
        promises[1 - first].succeed(1 - first)
        #expect(winner.value == first)
    }

    @Test("lazy sources make it lazy, and a blocking read stops running them at the first success")
    func lazySources() {
        let runs = Counter()
        let sources = (0..<3).map { index in
            LazyFuture { () throws(LoadError) -> Int in
                runs.increment()
                if index == 2 { throw .unreachable(index) }
                return index
            }
        }
        let winner = Future.firstSuccess(of: sources)
        #expect(winner._isLazyKind)
        #expect(runs.value == 0)
        #expect((try? winner.value) != nil)
        #expect(runs.value <= 2)
    }

    @Test("when every source is cancelled, the result is cancelled")
    func allCancelled() {
        let promises = (0..<2).map { _ in Promise<Int, any Error>() }
        let winner = Future.firstSuccess(of: promises.map(\.future))
        promises[0].future.cancel()
        promises[1].future.cancel()
        #expect(winner.isCancelled)
    }

    @Test("racing successes and failures from many threads: a value wins, once", arguments: 0..<20)
    func racingThreads(seed: Int) {
        let promises = (0..<16).map { _ in Promise<Int, LoadError>() }
        let winner = Future.firstSuccess(of: promises.map(\.future))
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            if (index + seed) % 3 == 0 {
                promises[index].succeed(index)
            } else {
                promises[index].fail(.unreachable(index))
            }
        }
        guard case .success(let index) = winner.result else {
            Issue.record("a source succeeded, yet the race failed")
            return
        }
        #expect((index + seed) % 3 == 0)
    }

    @Test("failures from many threads: the race fails once all have failed, not before", arguments: 0..<20)
    func failuresFromManyThreads(seed: Int) {
        let promises = (0..<16).map { _ in Promise<Int, LoadError>() }
        let race = Future.firstSuccess(of: promises.map(\.future))
        let last = (seed * 7) % 16
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            if index != last { promises[index].fail(.unreachable(index)) }
        }
        #expect(!race.isResolved)
        promises[last].fail(.unreachable(last))
        #expect(throws: LoadError.unreachable(last)) { try race.value }
    }
}
