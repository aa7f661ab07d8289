import Foundation
import Testing

@testable import Futures

/// A flatMap whose closure returns the future that flatMap makes (Promises/A+ 2.3.1, PromiseKit's
/// `returnedSelf`), directly or through futures derived from it, would wait for itself for ever:
/// it fails with `FutureCycleError` naming its creation site, or traps when its error type cannot
/// hold that error.
@Suite("a flatMap that returns its own future")
struct SelfWaitTests {
    @Test("a flatMap whose closure returns its own future fails with FutureCycleError naming its creation site")
    func flatMapReturningItself() throws {
        let source = Promise<Int, any Error>()
        let cell = Promise<Future<Int, any Error>, Never>()
        let looped = source.future.flatMap { _ in cell.future.value }
        cell.succeed(looped)
        source.succeed(1)
        let error = try #require(throws: FutureCycleError.self) { try looped.value }
        #expect(error.site == looped._creationSite)
        #expect(error.site.hasPrefix("FuturesTests/SelfWaitTests.swift:"))
        #expect(error.description.contains("was given itself to wait for"))
    }

    @Test("so does a lazy one, read on this thread")
    func lazyFlatMapReturningItself() {
        let cell = Promise<Future<Int, any Error>, Never>()
        let source = LazyFuture { () throws -> Int in 1 }
        let looped = source.flatMap { _ in cell.future.value }
        cell.succeed(looped)
        #expect(throws: FutureCycleError.self) { try looped.value }
    }

    @Test("a flatMap whose closure returns a future derived from its own fails, and so do those", arguments: [1, 3])
    func flatMapReturningADerivedFuture(depth: Int) {
        let source = Promise<Int, any Error>()
        let cell = Promise<Future<Int, any Error>, Never>()
        let looped = source.future.flatMap { _ in cell.future.value }
        var derived = looped
        for step in 0..<depth {
            derived = step % 2 == 0 ? derived.map { $0 + 1 } : derived.recover { _ in 0 }.eraseFailure()
        }
        cell.succeed(derived)
        source.succeed(1)
        #expect(throws: FutureCycleError.self) { try looped.value }
        // Whatever the chain made of the error, it resolved instead of waiting for ever.
        #expect(derived.isResolved)
    }

    @Test("a flatMapError whose closure returns its own future fails with FutureCycleError")
    func flatMapErrorReturningItself() {
        let source = Promise<Int, any Error>()
        let cell = Promise<Future<Int, any Error>, Never>()
        let looped = source.future.flatMapError { _ in cell.future.value }
        cell.succeed(looped)
        source.fail(TaggedError(tag: 1))
        #expect(throws: FutureCycleError.self) { try looped.value }
    }

    @Test("a retry whose closure returns the retry's own future fails with FutureCycleError")
    func retryReturningItself() {
        // The first attempt fails only once the retry's future is in the cell: the second attempt
        // (made when the first fails) returns it.
        let firstAttempt = Promise<Int, any Error>()
        let cell = Promise<Future<Int, any Error>, Never>()
        let calls = CallCounter()
        let retried = Future<Int, any Error>.retry(attempts: 3) {
            calls.increment()
            return calls.value == 1 ? firstAttempt.future : cell.future.value
        }
        cell.succeed(retried)
        firstAttempt.fail(TaggedError(tag: 1))
        #expect(throws: FutureCycleError.self) { try retried.value }
        #expect(calls.value == 2)
    }

    // MARK: Not a self-wait

    @Test("a flatMap that returns its own source, or a future of several sources that include it, waits as usual")
    func notASelfWait() throws {
        let source = Promise<Int, any Error>()
        let again = source.future.flatMap { _ in source.future }
        let other = Promise<Int, any Error>()
        let cell = Promise<Future<Int, any Error>, Never>()
        // It may resolve from `other`: no cycle.
        let racing = source.future.flatMap { _ in Future.first(of: [cell.future.value, other.future]) }
        cell.succeed(racing)
        source.succeed(4)
        #expect(try again.value == 4)
        #expect(racing.peek == nil)
        other.succeed(5)
        #expect(try racing.value == 5)
    }

    // MARK: Error types that cannot hold FutureCycleError

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("a flatMap that cannot fail traps instead, naming its creation site")
        func flatMapThatCannotFailTraps() async {
            let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let source = Promise<Int, Never>()
                let cell = Promise<Future<Int, Never>, Never>()
                let looped = source.future.flatMap { _ in cell.future.value }
                cell.succeed(looped)
                source.succeed(1)
                _ = readBlocking(looped)
            }
            let errors = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
            #expect(errors.contains("Future<Int> (derived) created at FuturesTests/SelfWaitTests.swift:"))
            #expect(errors.contains("was given itself to wait for"))
            #expect(errors.contains("cannot hold FutureCycleError"))
        }
    #endif

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("a flatMap with a typed error traps too")
        func flatMapWithATypedErrorTraps() async {
            let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let source = Promise<Int, ParseError>()
                let cell = Promise<Future<Int, ParseError>, Never>()
                let looped = source.future.flatMap { _ in cell.future.value }
                cell.succeed(looped)
                source.succeed(1)
            }
            let errors = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
            #expect(errors.contains("Future<Int, ParseError> (derived) created at FuturesTests/SelfWaitTests.swift:"))
            #expect(errors.contains("was given itself to wait for"))
        }
    #endif
}
