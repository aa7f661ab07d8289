import Testing

@testable import Futures

/// The record of the futures a walk up the links has met: a short list, then a set.
struct VisitedFuturesTests {
    @Test("each future is new once, across the move from the list to the set")
    func eachFutureIsNewOnce() {
        let futures = (0..<100).map { Future<Int, Never>(value: $0) }
        var visited = VisitedFutures()
        let firstTimes = futures.map { visited.insert($0) }
        let secondTimes = futures.map { visited.insert($0) }
        #expect(firstTimes.allSatisfy { $0 })
        #expect(secondTimes.allSatisfy { !$0 })
    }

    @Test("a future met again before the list is full is not new")
    func aFutureMetAgainInTheListIsNotNew() {
        let first = Future<Int, Never>(value: 1)
        let second = Future<Int, Never>(value: 2)
        var visited = VisitedFutures()
        let inserted = [visited.insert(first), visited.insert(second), visited.insert(first), visited.insert(second)]
        #expect(inserted == [true, true, false, false])
    }
}
