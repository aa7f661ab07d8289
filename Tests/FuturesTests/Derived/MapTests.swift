import Foundation
import Synchronization
import Testing
@testable import Futures

@Suite("map, flatMap, mapError, recover")
struct MapTests {
    @Test("map of a lazy future stays lazy: nothing runs until the child is read")
    func mapOfLazyStaysLazy() {
        let runs = CallCounter()
        let transforms = CallCounter()
        let parent = LazyFuture { runs.increment(); return 20 }
        let child = parent.map { value in transforms.increment(); return value + 1 }
        let grandchild = child.map { $0 * 2 }
        #expect(runs.value == 0)
        #expect(transforms.value == 0)
        #expect(!child.isResolved)
        #expect(grandchild.value == 42)
        #expect(runs.value == 1)
        #expect(transforms.value == 1)
        #expect(child.value == 21)
        #expect(parent.value == 20)
        #expect(runs.value == 1)
    }

    @Test("map of a background future resolves on its own, without a read")
    func mapOfBackgroundResolvesOnItsOwn() {
        let gate = CompositionGate()
        let parent = BackgroundFuture { gate.wait(); return 1 }
        let resolved = DispatchSemaphore(value: 0)
        let child = parent.map { $0 + 1 }
        child.onComplete { _ in resolved.signal() }
        gate.open()
        resolved.wait()
        #expect(child.peek.map { $0.get() } == 2)
    }

    @Test("a failure skips every closure downstream and reaches the end unchanged")
    func errorsSkipClosures() {
        let transforms = CallCounter()
        let parent = LazyFuture { () throws(TaggedError) -> Int in throw TaggedError(tag: 7) }
        let end = parent
            .map { value in transforms.increment(); return value + 1 }
            .flatMap { value in
                transforms.increment()
                return LazyFuture { () throws(TaggedError) -> Int in value }
            }
            .map { value in transforms.increment(); return "\(value)" }
        #expect(throws: TaggedError(tag: 7)) { try end.value }
        #expect(transforms.value == 0)
    }

    @Test("flatMap waits for the inner future, and a lazy inner runs only when read")
    func flatMapChains() {
        let innerRuns = CallCounter()
        let outer = LazyFuture { 3 }
        let chained = outer.flatMap { value in LazyFuture { innerRuns.increment(); return value * 10 } }
        #expect(innerRuns.value == 0)
        #expect(chained.value == 30)
        #expect(innerRuns.value == 1)

        let promise = Promise<Int, Never>()
        let background = BackgroundFuture { 2 }.flatMap { value in promise.future.map { $0 + value } }
        #expect(background.result(timeout: .zero) == nil)
        promise.succeed(40)
        #expect(background.value == 42)
    }

    @Test("flatMap of a background future starts a lazy inner future by itself")
    func eagerFlatMapStartsLazyInner() {
        let done = DispatchSemaphore(value: 0)
        let chained = BackgroundFuture { 1 }.flatMap { value in LazyFuture { value + 1 } }
        chained.onComplete { _ in done.signal() }
        done.wait()
        #expect(chained.peek.map { $0.get() } == 2)
    }

    @Test("mapError changes the error type; recover replaces the error with a value")
    func mapErrorAndRecover() {
        enum Wrapped: Error, Equatable { case load(Int) }
        let failing = LazyFuture { () throws(TaggedError) -> Int in throw TaggedError(tag: 3) }
        let mapped: Future<Int, Wrapped> = failing.mapError { .load($0.tag) }
        #expect(throws: Wrapped.load(3)) { try mapped.value }
        let recovered: Future<Int, Never> = failing.recover { $0.tag * 100 }
        #expect(recovered.value == 300)
        let succeeding = LazyFuture { () throws(TaggedError) -> Int in 5 }
        #expect(succeeding.recover { _ in 0 }.value == 5)
    }

    @Test("a 10,000-step chain of maps completes without overflowing the stack", arguments: [true, false])
    func longChain(lazy: Bool) {
        let promise = Promise<Int, Never>()
        let root: Future<Int, Never> = lazy ? LazyFuture { 0 } : promise.future
        var end = root
        for _ in 0..<10_000 { end = end.map { $0 + 1 } }
        if !lazy { promise.succeed(0) }
        #expect(end.value == 10_000)
    }

    @Test("a 10,000-step chain of flatMaps completes without overflowing the stack")
    func longFlatMapChain() {
        var end: Future<Int, Never> = LazyFuture { 0 }
        for _ in 0..<10_000 { end = end.flatMap { value in LazyFuture { value + 1 } } }
        #expect(end.value == 10_000)
    }

    @Test("the transform's closure captures are released once the child resolves")
    func derivedFutureReleasesItsClosure() {
        final class Token: Sendable {}
        weak var weakToken: Token?
        let child: Future<Int, Never>
        do {
            let token = Token()
            weakToken = token
            child = LazyFuture { 1 }.map { value in withExtendedLifetime(token) { value } }
        }
        #expect(weakToken != nil)
        #expect(child.value == 1)
        #expect(weakToken == nil)
    }

    @Test("an unread lazy chain that is dropped is freed")
    func droppedLazyChainIsFreed() {
        weak var weakParent: LazyFuture<Int, Never>?
        weak var weakChild: Future<Int, Never>?
        do {
            let parent = LazyFuture { 1 }
            let child = parent.map { $0 + 1 }
            weakParent = parent
            weakChild = child
        }
        #expect(weakParent == nil)
        #expect(weakChild == nil)
    }

    @Test("compound member access derives futures without resolving anything")
    func deferredMembers() {
        let runs = CallCounter()
        let words = LazyFuture { runs.increment(); return ["a", "bb", "ccc"] }
        let count: Future<Int, Never> = words.deferred.count
        let first: Future<String?, Never> = words.deferred.first
        #expect(runs.value == 0)
        #expect(count.value == 3)
        #expect(first.value == "a")
        #expect(runs.value == 1)
    }
}
