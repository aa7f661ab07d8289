import Foundation
import Synchronization
import Testing
@testable import Futures

@Suite("Agent, delays and bridges")
struct BridgingTests {
    @Test("1,000 concurrent agent calls are serialized and all applied")
    func agentSerializes() {
        final class Counter {   // not thread-safe on purpose
            var value = 0
            var inside = false
            var overlaps = 0
        }
        let agent = Agent(Counter())
        let futures = LockedBox<[BackgroundFuture<Int, Never>]>([])
        DispatchQueue.concurrentPerform(iterations: 1_000) { _ in
            let future = agent.async { counter -> Int in
                if counter.inside { counter.overlaps += 1 }
                counter.inside = true
                counter.value += 1
                let seen = counter.value
                counter.inside = false
                return seen
            }
            futures.withLock { $0.append(future) }
        }
        let seen = futures.withLock { $0 }.map(\.value)
        #expect(Set(seen) == Set(1...1_000))
        #expect(agent.async { $0.overlaps }.value == 0)
        #expect(agent.async { $0.value }.value == 1_000)
    }

    @Test("agent work runs on the agent's queue, in submission order, and can fail")
    func agentOrderAndErrors() {
        let agent = Agent([Int]())
        for index in 0..<100 { agent.async { $0.append(index) } }
        #expect(agent.async { $0 }.value == Array(0..<100))
        let failing = agent.async { _ throws(TaggedError) -> Int in throw TaggedError(tag: 5) }
        #expect(throws: TaggedError(tag: 5)) { try failing.value }
    }

    @Test("a delayed future does not run before its delay, even when read")
    func delayedFuture() {
        let start = ContinuousClock.now
        let future = BackgroundFuture(after: .milliseconds(30)) { ContinuousClock.now }
        let ranAt = future.value
        #expect(ranAt - start >= .milliseconds(30))
    }

    @Test("a future from an async closure resolves with its outcome")
    func futureFromAsyncClosure() async throws {
        let value = Future.task { () async -> Int in
            await Task.yield()
            return 41
        }
        #expect(await value.get() == 41)
        let failing = Future.task { () async throws(TaggedError) -> Int in throw TaggedError(tag: 2) }
        await #expect(throws: TaggedError(tag: 2)) { try await failing.get() }
    }

    @Test("wrap turns a callback API of any shape into a future")
    func wrapCallbackAPIs() throws {
        @Sendable func legacyAdd(_ a: Int, _ b: Int, completion: @escaping @Sendable (Result<Int, TaggedError>) -> Void) {
            DispatchQueue.global().async { completion(.success(a + b)) }
        }
        @Sendable func legacyFail(_ tag: Int, completion: @escaping @Sendable (Result<Int, TaggedError>) -> Void) {
            completion(.failure(TaggedError(tag: tag)))
        }
        let add = Future.wrap(legacyAdd)
        #expect(try add(40, 2).value == 42)
        let fail = Future.wrap(legacyFail)
        #expect(throws: TaggedError(tag: 3)) { try fail(3).value }
        let general = Future<Int, TaggedError>.wrap { complete in legacyAdd(1, 2, completion: complete) }
        #expect(try general.value == 3)
    }

    @Test("wrap of a Foundation-style handler: value, error, or neither")
    func wrapOptionalPair() throws {
        let value = Future<Int, any Error>.wrap { complete in complete(5, nil) }
        #expect(try value.value == 5)
        let error = Future<Int, any Error>.wrap { complete in complete(nil, TaggedError(tag: 1)) }
        #expect(throws: TaggedError(tag: 1)) { try error.value }
        let neither = Future<Int, any Error>.wrap { complete in complete(nil, nil) }
        #expect(throws: MissingCallbackValueError.self) { try neither.value }
        let twice = Future<Int, any Error>.wrap { complete in
            complete(1, nil)
            complete(2, nil)
        }
        #expect(try twice.value == 1)
    }
}
