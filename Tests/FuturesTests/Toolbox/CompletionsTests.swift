import Foundation
import Testing

@testable import Futures

// Python's asyncio.as_completed and concurrent.futures.as_completed are the peers: every result
// once, in the order the futures finish, ending after the last.
@Suite("Future.completions(of:)")
struct CompletionsTests {
    @Test("results arrive in the order the futures resolve, and the sequence ends after the last")
    func resolutionOrder() async {
        let promises = (0..<3).map { _ in Promise<Int, LoadError>() }
        var results = Future.completions(of: promises.map(\.future)).makeAsyncIterator()
        promises[2].succeed(2)
        #expect(await results.next() == .success(2))
        promises[0].fail(.timedOut)
        #expect(await results.next() == .failure(.timedOut))
        promises[1].succeed(1)
        #expect(await results.next() == .success(1))
        #expect(await results.next() == nil)
        #expect(await results.next() == nil)
    }

    @Test("a waiting next() is resumed by a future resolved from another thread")
    func resumedFromAnotherThread() async {
        let promise = Promise<Int, Never>()
        let completions = Future.completions(of: [promise.future])
        let consumer = Task {
            var collected: [Int] = []
            for await result in completions { collected.append(result.success) }
            return collected
        }
        DispatchQueue.global().async { promise.succeed(7) }
        #expect(await consumer.value == [7])
    }

    @Test("making the sequence runs nothing; iterating starts lazy futures off the caller's thread")
    func lazyStartsOnIteration() async {
        let runs = Counter()
        let futures = (0..<4).map { index in
            LazyFuture { () -> Int in
                runs.increment()
                return index
            }
        }
        let completions = Future.completions(of: futures)
        var iterator = completions.makeAsyncIterator()
        #expect(runs.value == 0)
        var seen: Set<Int> = []
        while let result = await iterator.next() { seen.insert(result.success) }
        #expect(seen == [0, 1, 2, 3])
        #expect(runs.value == 4)
    }

    @Test("futures resolved before iteration are delivered in the order given")
    func alreadyResolved() async {
        var collected: [Int] = []
        for await result in Future.completions(of: [Future(value: 3), Future(value: 1), Future(value: 2)]) {
            collected.append(result.success)
        }
        #expect(collected == [3, 1, 2])
    }

    @Test("no futures end at once")
    func empty() async {
        var iterator = Future<Int, Never>.completions(of: []).makeAsyncIterator()
        #expect(await iterator.next() == nil)
    }

    @Test("cancelling the iterating task ends the sequence; the futures go on")
    func cancellation() async {
        let promise = Promise<Int, Never>()
        let first = Promise<Void, Never>()
        let completions = Future.completions(of: [promise.future, Future(value: 1)])
        let consumer = Task {
            var collected: [Int] = []
            for await result in completions {
                collected.append(result.success)
                first.succeed()
            }
            return collected
        }
        await first.future.get()
        consumer.cancel()
        #expect(await consumer.value == [1])
        #expect(!promise.future.isResolved)
        promise.succeed(2)
        #expect(promise.future.peek == .success(2))
    }

    @Test("each iterator gets every result once")
    func twoIterators() async {
        let promises = (0..<3).map { _ in Promise<Int, Never>() }
        let completions = Future.completions(of: promises.map(\.future))
        var first = completions.makeAsyncIterator()
        var second = completions.makeAsyncIterator()
        for (index, promise) in promises.enumerated() { promise.succeed(index) }
        var a: [Int] = []
        var b: [Int] = []
        while let result = await first.next() { a.append(result.success) }
        while let result = await second.next() { b.append(result.success) }
        #expect(Set(a) == [0, 1, 2] && a.count == 3)
        #expect(Set(b) == [0, 1, 2] && b.count == 3)
    }

    @Test("1,000 futures resolved from many threads: each result exactly once", arguments: 0..<5)
    func manyThreads(repetition: Int) async {
        let promises = (0..<1_000).map { _ in Promise<Int, Never>() }
        let completions = Future.completions(of: promises.map(\.future))
        let consumer = Task {
            var seen: [Int] = []
            for await result in completions { seen.append(result.success) }
            return seen
        }
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: 1_000) { promises[$0].succeed($0) }
        }
        let seen = await consumer.value
        #expect(seen.count == 1_000)
        #expect(Set(seen) == Set(0..<1_000))
    }
}
