import Foundation
import Testing

@testable import Futures

// Promises/A+ 2.2.6: the callbacks of one future run in the order they were registered.
// Callbacks registered before resolution are handed to their contexts in registration order, as
// one batch; a callback added from inside one of them, to the future that is now resolved, is
// queued behind the rest of that batch (`CallbackTrampoline`).
@Suite("Order of callbacks (Promises/A+ 2.2.6)")
struct CallbackOrderTests {
    @Test("callbacks registered before resolution run in registration order")
    func registrationOrder() {
        let promise = Promise<Int, Never>()
        let order = Collector<Int>()
        for index in 0..<100 { promise.future.onComplete { _ in order.append(index) } }
        promise.succeed(1)
        #expect(order.all == Array(0..<100))
    }

    @Test("a callback added from inside another runs after the rest of the first batch (A+ 2.2.6)")
    func nestedCallbackRunsAfterBatch() {
        let promise = Promise<Int, Never>()
        let order = Collector<String>()
        promise.future.onComplete { _ in
            order.append("first")
            promise.future.onComplete { _ in order.append("added by first") }
        }
        promise.future.onComplete { _ in order.append("second") }
        promise.succeed(1)
        #expect(order.all == ["first", "second", "added by first"])
    }

    /// A derived future keeps its first callback in its links and the others in the parking lot's
    /// table (`addResolutionCallbackForGood`): the two places must still give one order.
    @Test("a derived future's callbacks run in registration order, the first kept in its links")
    func derivedFutureKeepsRegistrationOrder() {
        let promise = Promise<Int, Never>()
        let order = Collector<Int>()
        let doubled = promise.future.map { $0 * 2 }
        for index in 0..<5 { doubled.onComplete { _ in order.append(index) } }
        let mapped = doubled.map { _ in order.append(5) }
        doubled.onSuccess { _ in order.append(6) }
        #expect(doubled._parkedCallbackCount == 7)
        promise.succeed(1)
        #expect(order.all == Array(0...6))
        #expect(mapped.isResolved)
    }

    /// A callback that can be taken back (a timeout's, a cancelled wait's) goes to the table even
    /// first: one taken back, the next callbacks still run in order.
    @Test("callbacks after one taken back from a derived future run in registration order")
    func orderAfterACallbackTakenBack() {
        let promise = Promise<Int, Never>()
        let order = Collector<Int>()
        let doubled = promise.future.map { $0 * 2 }
        // A race decided by a resolved future takes back the callback it parked on `doubled`.
        #expect(Future.first(of: [Future(value: 0), doubled]).value == 0)
        #expect(doubled._parkedCallbackCount == 0)
        for index in 0..<3 { doubled.onComplete { _ in order.append(index) } }
        promise.succeed(1)
        #expect(order.all == [0, 1, 2])
    }

    /// A derived future's callbacks run after the source's batch that resolved it, each batch in
    /// registration order.
    @Test("a derived future's callbacks run after the batch of the source that resolved it")
    func derivedFuturesCallbacksRunAfterTheSourcesBatch() {
        let promise = Promise<Int, Never>()
        let order = Collector<String>()
        let doubled = promise.future.map { $0 * 2 }
        doubled.onComplete { _ in order.append("derived") }
        promise.future.onComplete { _ in order.append("source, registered after the map") }
        promise.succeed(1)
        #expect(order.all == ["source, registered after the map", "derived"])
        #expect(doubled.value == 2)
    }

    /// `onSuccess { … }`, `onFailure { … }` and `onComplete { … }` take no context: they are the
    /// `.immediate` callbacks, registered as one closure each, and the context versions hand
    /// `.immediate` to them. Both kinds, mixed on one future, keep one registration order, run
    /// once each on the thread that resolves the future, and only for the outcome they are for.
    @Test("callbacks without a context run as on .immediate: once, in registration order, on the resolving thread")
    func callbacksWithoutAContextRunAsOnImmediate() {
        struct Failed: Error {}
        let succeeding = Promise<Int, Failed>()
        let failing = Promise<Int, Failed>()
        let order = Collector<String>()
        let threads = Collector<ObjectIdentifier>()
        for (name, promise) in [("succeeding", succeeding), ("failing", failing)] {
            @Sendable func record(_ callback: String) {
                order.append("\(name) \(callback)")
                threads.append(ObjectIdentifier(Thread.current))
            }
            promise.future
                .onSuccess { _ in record("onSuccess") }
                .onFailure(on: .immediate) { _ in record("onFailure(on: .immediate)") }
                .onComplete { _ in record("onComplete") }
                .onSuccess(on: .immediate) { _ in record("onSuccess(on: .immediate)") }
                .onFailure { _ in record("onFailure") }
                .onComplete(on: .immediate) { _ in record("onComplete(on: .immediate)") }
        }
        let resolver = Locked<ObjectIdentifier?>(nil)
        let resolved = DispatchSemaphore(value: 0)
        Thread {
            resolver.withLock { $0 = ObjectIdentifier(Thread.current) }
            succeeding.succeed(1)
            failing.fail(Failed())
            resolved.signal()
        }.start()
        resolved.wait()
        #expect(
            order.all == [
                "succeeding onSuccess",
                "succeeding onComplete",
                "succeeding onSuccess(on: .immediate)",
                "succeeding onComplete(on: .immediate)",
                "failing onFailure(on: .immediate)",
                "failing onComplete",
                "failing onFailure",
                "failing onComplete(on: .immediate)",
            ])
        let resolvingThread = resolver.withLock { $0 }
        #expect(threads.all.count == 8)
        #expect(resolvingThread != nil && threads.all.allSatisfy { $0 == resolvingThread })
        // Added once resolved, they run at once on the adding thread.
        let late = Collector<String>()
        succeeding.future.onSuccess { late.append("onSuccess \($0)") }.onFailure { _ in late.append("onFailure") }
        failing.future.onComplete { late.append("onComplete \((try? $0.get()) == nil ? "failed" : "succeeded")") }
        #expect(late.all == ["onSuccess 1", "onComplete failed"])
    }
}
