import Foundation
import Testing

@testable import Futures

// Bounded fan-out, after the bounded-concurrency recipes of PromiseKit (when(fulfilled:
// concurrently:) in Tests/CorePromise/WhenConcurrentTests.swift: never more than the bound in
// flight, order kept, a failure stops the making of new promises) and the TaskGroup pattern
// they replace. Futures here are promises the test completes, so slots are observed exactly.
@Suite("Future.all(_:maxConcurrent:_:)")
struct BoundedAllTests {
    /// Makes a promise per item, on demand, and remembers them by item.
    final class Maker: Sendable {
        let promises = Locked<[Int: Promise<Int, LoadError>]>([:])
        let made = Counter()

        func make(_ item: Int) -> Future<Int, LoadError> {
            made.increment()
            let promise = Promise<Int, LoadError>()
            promises.withLock { $0[item] = promise }
            return promise.future
        }

        subscript(item: Int) -> Promise<Int, LoadError> { promises.withLock { $0[item]! } }
        var madeItems: Set<Int> { promises.withLock { Set($0.keys) } }
    }

    @Test("only maxConcurrent futures are made at first, and each resolution frees one slot")
    func slots() throws {
        let maker = Maker()
        let all = Future.all(0..<10, maxConcurrent: 3) { maker.make($0) }
        #expect(maker.madeItems == [0, 1, 2])
        maker[1].succeed(10)
        #expect(maker.madeItems == [0, 1, 2, 3])
        maker[0].succeed(0)
        maker[3].succeed(30)
        #expect(maker.madeItems == Set(0...5))
        for item in [2, 4, 5] { maker[item].succeed(item * 10) }
        for item in 6..<10 { maker[item].succeed(item * 10) }
        #expect(try all.value == [0, 10, 20, 30, 40, 50, 60, 70, 80, 90])
        #expect(maker.made.value == 10)
    }

    @Test("the values keep the order of the items, whatever order the futures resolve in", arguments: 0..<10)
    func orderKept(seed: Int) throws {
        let maker = Maker()
        let all = Future.all(0..<50, maxConcurrent: 4) { maker.make($0) }
        var generator = SeededGenerator(seed: UInt64(seed))
        while maker.made.value < 50 || maker.promises.withLock({ $0.values.contains { !$0.future.isResolved } }) {
            let pending = maker.promises.withLock { $0.filter { !$0.value.future.isResolved }.map(\.key) }.sorted()
            let item = pending.randomElement(using: &generator)!
            maker[item].succeed(item)
        }
        #expect(try all.value == Array(0..<50))
    }

    @Test(
        "the first failure by position wins, once the items before it succeeded, and no future is made after a failure")
    func firstFailureByPosition() {
        let maker = Maker()
        let all = Future.all(0..<10, maxConcurrent: 3) { maker.make($0) }
        maker[2].fail(.unreachable(2))
        #expect(maker.madeItems == [0, 1, 2])
        maker[1].fail(.unreachable(1))
        #expect(!all.isResolved)
        maker[0].succeed(0)
        #expect(throws: LoadError.unreachable(1)) { try all.value }
        #expect(maker.made.value == 3)
    }

    @Test("never more than maxConcurrent background futures run at once", arguments: [1, 3])
    func backgroundBound(maxConcurrent: Int) throws {
        let meter = ConcurrencyMeter()
        let all = Future.all(0..<60, maxConcurrent: maxConcurrent) { item in
            BackgroundFuture { () throws(LoadError) -> Int in
                meter.measure {
                    spin(for: .microseconds(200))
                    return item
                }
            }
        }
        #expect(try all.value == Array(0..<60))
        #expect(meter.maximum <= maxConcurrent)
    }

    @Test("lazy futures: nothing beyond the first is made until the result is read, then they run")
    func lazyItems() {
        let made = Counter()
        let runs = Counter()
        let all = Future.all(0..<8, maxConcurrent: 2) { item in
            made.increment()
            return LazyFuture { () -> Int in
                runs.increment()
                return item * 2
            }
        }
        #expect(all._isLazyKind)
        #expect(made.value == 1 && runs.value == 0)
        #expect(all.value == (0..<8).map { $0 * 2 })
        #expect(made.value == 8 && runs.value == 8)
    }

    @Test("lazy futures read with get() run on the global context, all of them")
    func lazyItemsAsync() async {
        let all = Future.all(0..<20, maxConcurrent: 3) { item in LazyFuture { item + 1 } }
        #expect(await all.get() == Array(1...20))
    }

    @Test("no items give an empty array at once, and the closure is never called")
    func noItems() {
        let all = Future.all([Int](), maxConcurrent: 2) { item -> Future<Int, Never> in
            Issue.record("called for \(item)")
            return Future(value: item)
        }
        #expect(all.peek == .success([]))
    }

    @Test("100,000 items whose futures resolve at once cost no stack depth")
    func manyImmediate() {
        let values = onNewThread(stackSize: 512 << 10) {
            Future.all(0..<100_000, maxConcurrent: 4) { Future(value: $0) }.peek
        }
        #expect(values == .success(Array(0..<100_000)))
    }

    @Test("cancelling the result cancels the futures in flight and makes no more")
    func cancellation() {
        let made = Collector<Future<Int, any Error>>()
        let all = Future.all(0..<10, maxConcurrent: 3) { _ -> Future<Int, any Error> in
            let future = Promise<Int, any Error>().future
            made.append(future)
            return future
        }
        #expect(made.all.count == 3)
        all.cancel()
        #expect(made.all.allSatisfy { $0.isCancelled })
        #expect(made.all.count == 3)
    }

    @Test(
        "cancelled from inside makeFuture: the future being made is cancelled, no more are made, and makeFuture is let go of",
        arguments: 0..<20)
    func cancelledWhileMaking(repetition: Int) {
        // The cancel ends the run while its thread is still in makeFuture, which the run calls
        // without a retain: the run must let go of it only once that call has returned (ASan
        // would see a use after free), and the future that call returns must be cancelled too.
        let made = Collector<Future<Int, any Error>>()
        let result = Locked<Future<[Int], any Error>?>(nil)
        let first = Promise<Int, any Error>()
        let (all, canary) = withCanary { canary in
            Future.all(0..<10, maxConcurrent: 1) { index -> Future<Int, any Error> in
                _ = canary.name
                if index == 1 { result.withLock { $0 }?.cancel() }
                let future = index == 0 ? first.future : Promise<Int, any Error>().future
                made.append(future)
                return future
            }
        }
        result.withLock { $0 = all }
        if repetition.isMultiple(of: 2) {
            first.succeed(0)
        } else {
            DispatchQueue.global().sync { _ = first.succeed(0) }
        }
        #expect(all.isCancelled)
        #expect(made.all.count == 2)
        #expect(made.all.last?.isCancelled == true)
        result.withLock { $0 = nil }
        #expect(canary.object == nil)
    }

    @Test("a cancelled item, first by position, cancels the result")
    func cancelledItem() {
        let promises = Locked<[Promise<Int, any Error>]>([])
        let all = Future.all(0..<2, maxConcurrent: 2) { _ -> Future<Int, any Error> in
            let promise = Promise<Int, any Error>()
            promises.withLock { $0.append(promise) }
            return promise.future
        }
        promises.withLock { $0[0] }.future.cancel()
        #expect(all.isCancelled)
    }

    @Test("items resolved from many threads: every value once, in order, within the bound", arguments: 0..<10)
    func racingResolutions(repetition: Int) throws {
        let inFlight = ConcurrencyMeter()
        let open = Locked(0)
        let highest = Locked(0)
        let all = Future.all(0..<200, maxConcurrent: 5) { item in
            let now = open.withLock { value -> Int in
                value += 1
                return value
            }
            highest.withLock { $0 = max($0, now) }
            return BackgroundFuture { () throws(LoadError) -> Int in
                defer { open.withLock { $0 -= 1 } }
                return inFlight.measure { item }
            }
        }
        #expect(try all.value == Array(0..<200))
        #expect(highest.withLock { $0 } <= 5)
        #expect(inFlight.maximum <= 5)
    }

    @Test(
        "a failure while the other futures in flight resolve on other threads: the run fails, and their late callbacks are ignored",
        arguments: 0..<300)
    func lateCallbacksAfterAFailure(repetition: Int) {
        // The failure ends the run, which takes its futures out of their slots while the others
        // resolve: a callback already handed over by then finds its slot empty, and must leave the
        // run as it is (its slot, not a captured index, says its item).
        let maker = Maker()
        let all = Future.all(0..<8, maxConcurrent: 8) { item in maker.make(item) }
        DispatchQueue.concurrentPerform(iterations: 8) { item in
            if item == repetition % 8 {
                maker[item].fail(.unreachable(item))
            } else {
                maker[item].succeed(item)
            }
        }
        #expect(all.result == .failure(.unreachable(repetition % 8)))
    }

    @Test(
        "read from work on a serial queue, with its items queued behind it on that queue, it finishes: the reader runs them"
    )
    func noStarvationOnASerialQueue() {
        let serial = DispatchQueue(label: "bounded-all.serial")
        let outer = BackgroundFuture(on: .queue(serial)) { () -> [Int] in
            Future.all(0..<6, maxConcurrent: 2) { item in BackgroundFuture(on: .queue(serial)) { item * 3 } }.value
        }
        #expect(outer.value == [0, 3, 6, 9, 12, 15])
    }

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("maxConcurrent below 1 is a misuse with a message")
        func misuse() async {
            let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = Future.all([1], maxConcurrent: 0) { Future(value: $0) }
            }
            let errorText = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
            #expect(errorText.contains("needs maxConcurrent of at least 1; it was given 0"))
            // The message points at the caller's line, not at a file inside Futures.
            #expect(errorText.contains("FuturesTests/BoundedAllTests.swift:"))
            #expect(!errorText.contains("Futures/Future+BoundedAll.swift") && !errorText.contains("Misuse.swift"))
        }
    #endif
}
