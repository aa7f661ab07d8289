import Foundation
import Testing

@testable import Futures

// Cases ported from SwiftNIO, Tests/NIOPosixTests/EventLoopFutureTest.swift: its fold tests
// (testFoldWith...: several event loops, successes, one failure, empty lists, a failed initial
// future with successes, unfulfilled or failed futures) and reduce tests (testReduceWith...,
// testReduceWhichDoesFailFast, testReduceIntoWith...). Event loops become queues and promises.
@Suite("fold, reduce, reduce(into:)")
struct FoldingTests {
    // NIO: testFoldWithMultipleEventLoops.
    @Test("fold over futures of several queues combines every value, in order")
    func foldAcrossQueues() throws {
        let first = DispatchQueue(label: "fold.1")
        let second = DispatchQueue(label: "fold.2")
        let initial = BackgroundFuture { [0] }
        let ones = (1...4).map { id in BackgroundFuture(on: .queue(first)) { id } }
        let twos = (5...8).map { id in BackgroundFuture(on: .queue(second)) { id } }
        let folded =
            initial
            .fold(ones) { values, id in BackgroundFuture(on: .queue(first)) { values + [id] } }
            .fold(twos) { values, id in Future(value: values + [id]) }
        #expect(folded.value == Array(0...8))
    }

    // NIO: testFoldWithSuccessAndAllSuccesses.
    @Test("fold of a success and successes gives the combined value")
    func foldSuccesses() {
        let futures = (1...5).map { Future(value: $0) }
        let folded = Future(value: [0]).fold(futures) { values, id in Future(value: values + [id]) }
        #expect(folded.value == [0, 1, 2, 3, 4, 5])
    }

    // NIO: testFoldWithSuccessAndOneFailure.
    @Test("fold fails with a failed future, at once, whatever is still pending")
    func foldOneFailure() {
        let promises = (0..<100).map { _ in Promise<Int, LoadError>() }
        let futures = [Future<Int, LoadError>(failure: .unreachable(0))] + promises.map(\.future)
        let folded = Future<Int, LoadError>(value: 0).fold(futures) { sum, value in Future(value: sum + value) }
        #expect(folded.isResolved)
        for promise in promises { promise.succeed(0) }
        #expect(throws: LoadError.unreachable(0)) { try folded.value }
    }

    // NIO: testFoldWithSuccessAndEmptyFutureList.
    @Test("fold over no futures gives the initial value")
    func foldNothing() {
        let folded = Future(value: 0).fold([Future<Int, Never>]()) { sum, value in Future(value: sum + value) }
        #expect(folded.value == 0)
    }

    // NIO: testFoldWithFailureAndEmptyFutureList.
    @Test("fold of a failure over no futures fails")
    func foldFailureOverNothing() {
        let folded = Future<Int, LoadError>(failure: .timedOut).fold([Future<Int, LoadError>]()) { sum, value in
            Future(value: sum + value)
        }
        #expect(folded.isResolved)
        #expect(throws: LoadError.timedOut) { try folded.value }
    }

    // NIO: testFoldWithFailureAndAllSuccesses.
    @Test("fold of a failure over successes fails with it")
    func foldFailureOverSuccesses() {
        let promises = (0..<100).map { _ in Promise<Int, LoadError>() }
        let folded = Future<Int, LoadError>(failure: .timedOut).fold(promises.map(\.future)) { sum, value in
            Future(value: sum + value)
        }
        for promise in promises { promise.succeed(1) }
        #expect(throws: LoadError.timedOut) { try folded.value }
    }

    // NIO: testFoldWithFailureAndAllUnfulfilled.
    @Test("fold of a failure fails at once, though nothing else has resolved")
    func foldFailureOverUnfulfilled() {
        let promises = (0..<100).map { _ in Promise<Int, LoadError>() }
        let folded = Future<Int, LoadError>(failure: .timedOut).fold(promises.map(\.future)) { sum, value in
            Future(value: sum + value)
        }
        #expect(folded.isResolved)
        #expect(throws: LoadError.timedOut) { try folded.value }
    }

    // NIO: testFoldWithFailureAndAllFailures.
    @Test("fold of a failure over failures fails with the first")
    func foldFailureOverFailures() {
        let futures = (0..<100).map { Future<Int, LoadError>(failure: .unreachable($0)) }
        let folded = Future<Int, LoadError>(failure: .timedOut).fold(futures) { sum, value in Future(value: sum + value)
        }
        #expect(throws: LoadError.timedOut) { try folded.value }
    }

    @Test("fold calls combine once per value, in order, and fails with what combine throws")
    func foldCombineOrderAndThrow() {
        let promises = (0..<4).map { _ in Promise<Int, LoadError>() }
        let seen = Collector<Int>()
        let folded = Future<Int, LoadError>(value: 0).fold(promises.map(\.future)) { (sum, value) throws(LoadError) in
            seen.append(value)
            if value == 2 { throw .unreachable(value) }
            return Future(value: sum + value)
        }
        for index in [3, 1, 2, 0] { promises[index].succeed(index) }
        #expect(throws: LoadError.unreachable(2)) { try folded.value }
        #expect(seen.all == [0, 1, 2])
    }

    @Test("fold of lazy futures is lazy, and reading it runs them")
    func foldLazy() {
        let runs = Counter()
        let futures = (1...3).map { id in
            LazyFuture { () -> Int in
                runs.increment()
                return id
            }
        }
        let folded = Future(value: 0).fold(futures) { sum, id in LazyFuture { sum + id } }
        #expect(folded._isLazyKind && runs.value == 0 && !folded.isResolved)
        #expect(folded.value == 6)
        #expect(runs.value == 3)
    }

    @Test("fold over 2,000 futures resolves without overflowing the stack")
    func foldLong() {
        let promises = (0..<2_000).map { _ in Promise<Int, Never>() }
        let folded = Future(value: 0).fold(promises.map(\.future)) { sum, value in Future(value: sum + value) }
        onNewThread(stackSize: 512 << 10) {
            for (index, promise) in promises.enumerated().reversed() { promise.succeed(index) }
        }
        #expect(folded.value == (0..<2_000).reduce(0, +))
    }

    // NIO: testReduceWithAllSuccesses.
    @Test("reduce(into:) appends every value in the order of the futures")
    func reduceIntoAppends() {
        let promises = (0..<5).map { _ in Promise<Int, Never>() }
        let reduced = Future.reduce(into: [Int](), promises.map(\.future)) { $0.append($1) }
        for index in 1...5 { promises[index - 1].succeed(index) }
        #expect(reduced.value == [1, 2, 3, 4, 5])
    }

    // NIO: testReduceWithOnlyInitialValue.
    @Test("reduce over no futures gives the initial value at once")
    func reduceNothing() {
        let reduced = Future.reduce(into: [Int](), [Future<Int, Never>]()) { $0.append($1) }
        #expect(reduced.peek == .success([]))
    }

    // NIO: testReduceWithAllFailures.
    @Test("reduce over failures fails")
    func reduceFailures() {
        let promises = (0..<100).map { _ in Promise<Int, LoadError>() }
        let reduced = Future.reduce(0, promises.map(\.future)) { $0 + $1 }
        for promise in promises { promise.fail(.timedOut) }
        #expect(throws: LoadError.timedOut) { try reduced.value }
    }

    // NIO: testReduceWithOneFailure.
    @Test("reduce over successes and one failure fails")
    func reduceOneFailure() {
        let futures = (0..<100).map { _ in Future<Int, LoadError>(value: 1) } + [Future(failure: .unreachable(100))]
        let reduced = Future.reduce(0, futures) { $0 + $1 }
        #expect(throws: LoadError.unreachable(100)) { try reduced.value }
    }

    // NIO: testReduceWhichDoesFailFast.
    @Test("reduce fails as soon as one future fails, while the others are pending")
    func reduceFailsFast() {
        let promises = (0..<101).map { _ in Promise<Int, LoadError>() }
        let reduced = Future.reduce(0, promises.map(\.future)) { $0 + $1 }
        promises[0].fail(.timedOut)
        #expect(reduced.isResolved)
        #expect(throws: LoadError.timedOut) { try reduced.value }
    }

    // NIO: testReduceIntoWithAllSuccesses.
    @Test("reduce(into:) counts values in a dictionary")
    func reduceIntoCounts() {
        let futures = [1, 2, 2, 3, 3, 3].map { Future(value: $0) }
        let counts = Future.reduce(into: [Int: Int](), futures) { counts, value in counts[value, default: 0] += 1 }
        #expect(counts.value == [1: 1, 2: 2, 3: 3])
    }

    // NIO: testReduceIntoWithEmptyFutureList.
    @Test("reduce(into:) over no futures gives the initial value")
    func reduceIntoNothing() {
        let counts = Future.reduce(into: [Int: Int](), [Future<Int, Never>]()) { counts, value in
            counts[value, default: 0] += 1
        }
        #expect(counts.value.isEmpty)
    }

    // NIO: testReduceIntoWithAllFailure.
    @Test("reduce(into:) over failures fails at once")
    func reduceIntoFailures() {
        let futures = [1, 2, 2, 3, 3, 3].map { Future<Int, LoadError>(failure: .unreachable($0)) }
        let counts = Future.reduce(into: [Int: Int](), futures) { counts, value in counts[value, default: 0] += 1 }
        #expect(counts.isResolved)
        #expect(throws: LoadError.unreachable(1)) { try counts.value }
    }

    // NIO: testReduceIntoWithMultipleEventLoops.
    @Test("reduce(into:) over futures of several queues")
    func reduceIntoAcrossQueues() {
        let first = DispatchQueue(label: "reduce.1")
        let second = DispatchQueue(label: "reduce.2")
        let futures =
            (1...4).map { id in BackgroundFuture(on: .queue(first)) { id / 2 } }
            + (5...8).map { id in BackgroundFuture(on: .queue(second)) { id / 2 } }
        let counts = Future.reduce(into: [Int: Int](), futures) { counts, value in counts[value, default: 0] += 1 }
        #expect(counts.value == [0: 1, 1: 2, 2: 2, 3: 2, 4: 1])
    }

    @Test("reduce's closure may throw the futures' error type")
    func reduceThrows() {
        let reduced = Future.reduce(0, (1...3).map { Future<Int, LoadError>(value: $0) }) {
            (sum, value) throws(LoadError) in
            if value == 3 { throw .unreachable(sum) }
            return sum + value
        }
        #expect(throws: LoadError.unreachable(3)) { try reduced.value }
    }

    @Test("reduce of lazy futures is lazy, and runs them when read")
    func reduceLazy() {
        let runs = Counter()
        let reduced = Future.reduce(
            0,
            (1...3).map { id in
                LazyFuture { () -> Int in
                    runs.increment()
                    return id
                }
            }
        ) { $0 + $1 }
        #expect(reduced._isLazyKind && runs.value == 0)
        #expect(reduced.value == 6)
        #expect(runs.value == 3)
    }
}
