import Testing

@testable import Futures

/// The record of the futures a walk up the links has met: a short list, then a set.
struct VisitedFuturesTests {
    @Test("each future is new once, across the move from the list to the set")
    func eachFutureIsNewOnce() {
        let futures = (0..<100).map { Future<Int, Never>(value: $0) }
        var visited = VisitedFutures()
        for future in futures {
            #expect(visited.insert(future))
        }
        for future in futures {
            #expect(!visited.insert(future))
        }
    }

    @Test("a future met again before the list is full is not new")
    func aFutureMetAgainInTheListIsNotNew() {
        let first = Future<Int, Never>(value: 1)
        let second = Future<Int, Never>(value: 2)
        var visited = VisitedFutures()
        #expect(visited.insert(first))
        #expect(visited.insert(second))
        #expect(!visited.insert(first))
        #expect(!visited.insert(second))
    }
}
