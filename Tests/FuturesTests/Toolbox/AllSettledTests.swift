import Foundation
import Testing

@testable import Futures

// Cases ported from PromiseKit, Tests/CorePromise/WhenResolvedTests.swift (when(resolved:):
// resolved inputs finish at once; the result waits for every input), plus order and failures.
@Suite("Future.allSettled(_:)")
struct AllSettledTests {
    // PromiseKit: testImmediates.
    @Test("resolved inputs settle at once")
    func immediates() {
        let settled = Future.allSettled([Future(value: 2), Future(value: 3), Future(value: 4)])
        #expect(settled.isResolved)
        #expect(settled.value.map { $0.success } == [2, 3, 4])
    }

    // PromiseKit: testFulfilledAfterAllResolve.
    @Test("the result waits until every input has resolved")
    func waitsForAll() {
        let promises = (0..<3).map { _ in Promise<Void, Never>() }
        let settled = Future.allSettled(promises.map(\.future))
        promises[0].succeed()
        #expect(!settled.isResolved)
        promises[1].succeed()
        #expect(!settled.isResolved)
        promises[2].succeed()
        #expect(settled.isResolved)
    }

    @Test("failures are elements, in the order of the inputs, and the result cannot fail")
    func failuresAreElements() {
        let promises = (0..<4).map { _ in Promise<Int, LoadError>() }
        let settled: Future<[Result<Int, LoadError>], Never> = Future.allSettled(promises.map(\.future))
        promises[3].succeed(3)
        promises[1].fail(.unreachable(1))
        promises[0].succeed(0)
        promises[2].fail(.timedOut)
        #expect(settled.value == [.success(0), .failure(.unreachable(1)), .failure(.timedOut), .success(3)])
    }

    @Test("no inputs settle at once to an empty array")
    func empty() {
        #expect(Future<Int, LoadError>.allSettled([]).peek.map { $0.success.isEmpty } == true)
    }

    @Test("lazy inputs make it lazy, and reading it runs them")
    func lazyInputs() {
        let runs = Counter()
        let settled = Future.allSettled(
            (0..<3).map { index in
                LazyFuture { () throws(LoadError) -> Int in
                    runs.increment()
                    if index == 1 { throw .unreachable(1) }
                    return index
                }
            })
        #expect(settled._isLazyKind && runs.value == 0)
        #expect(settled.value == [.success(0), .failure(.unreachable(1)), .success(2)])
        #expect(runs.value == 3)
    }

    @Test("a cancelled input settles as CancellationError")
    func cancelledInput() {
        let promise = Promise<Int, any Error>()
        let settled = Future.allSettled([promise.future, Future(value: 1)])
        promise.future.cancel()
        let results = settled.value
        guard case .failure(let error) = results[0] else {
            Issue.record("expected a failure, got \(results[0])")
            return
        }
        #expect(error is CancellationError)
    }

    @Test("500 inputs completed from many threads settle once, in order")
    func manyThreads() {
        let promises = (0..<500).map { _ in Promise<Int, LoadError>() }
        let settled = Future.allSettled(promises.map(\.future))
        DispatchQueue.concurrentPerform(iterations: 500) { index in
            if index % 7 == 0 { promises[index].fail(.unreachable(index)) } else { promises[index].succeed(index) }
        }
        #expect(settled.value == (0..<500).map { $0 % 7 == 0 ? .failure(.unreachable($0)) : .success($0) })
    }
}
