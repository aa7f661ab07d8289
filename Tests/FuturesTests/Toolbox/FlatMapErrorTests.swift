import Foundation
import Testing

@testable import Futures

// Cases after SwiftNIO's flatMapError tests in Tests/NIOPosixTests/EventLoopFutureTest.swift
// (the fallback's value replaces the error; a success skips the closure; the fallback's own
// failure comes through) and BrightFutures' recoverWith, with kinds and typed errors.
@Suite("flatMapError")
struct FlatMapErrorTests {
    @Test("the fallback future's value replaces the error")
    func fallbackValue() throws {
        let primary = Future<Int, LoadError>(failure: .unreachable(1))
        let recovered = primary.flatMapError { _ in BackgroundFuture { () throws(LoadError) -> Int in 2 } }
        #expect(try recovered.value == 2)
    }

    @Test("a success passes through, and the closure never runs")
    func successSkips() throws {
        let calls = Counter()
        let recovered = Future<Int, LoadError>(value: 1).flatMapError { _ in
            calls.increment()
            return Future<Int, LoadError>(value: 2)
        }
        #expect(try recovered.value == 1)
        #expect(calls.value == 0)
    }

    @Test("the fallback's failure, or the closure's thrown error, is the result")
    func fallbackFails() {
        let primary = Future<Int, LoadError>(failure: .unreachable(1))
        let failedAgain = primary.flatMapError { _ in Future<Int, LoadError>(failure: .timedOut) }
        #expect(throws: LoadError.timedOut) { try failedAgain.value }
        let thrown = primary.flatMapError { (error) throws(ParseError) -> Future<Int, ParseError> in throw .empty }
        #expect(throws: ParseError.empty) { try thrown.value }
    }

    @Test("a fallback that cannot fail gives a future that cannot fail")
    func fallbackCannotFail() {
        let settings = BackgroundFuture { () throws(LoadError) -> Int in throw .timedOut }
            .flatMapError { _ in LazyFuture { 0 } }
        let typed: Future<Int, Never> = settings
        #expect(typed.value == 0)
    }

    @Test("the closure sees cancellation and may replace it")
    func replacesCancellation() throws {
        let source = Promise<Int, any Error>()
        let seen = Collector<Bool>()
        let recovered = source.future.flatMapError { error in
            seen.append(error is CancellationError)
            return Future<Int, any Error>(value: -1)
        }
        source.future.cancel()
        #expect(try recovered.value == -1)
        #expect(seen.all == [true])
    }

    @Test("a lazy source and a lazy fallback stay lazy until read")
    func lazyStaysLazy() {
        let runs = Counter()
        let recovered = LazyFuture { () throws(LoadError) -> Int in
            runs.increment()
            throw .timedOut
        }.flatMapError { _ in
            LazyFuture { () -> Int in
                runs.increment()
                return 5
            }
        }
        #expect(recovered._isLazyKind && runs.value == 0)
        #expect(recovered.value == 5)
        #expect(runs.value == 2)
    }

    @Test("a cancelled fallback cancels the result")
    func cancelledFallback() {
        let fallback = Promise<Int, any Error>()
        let recovered = Future<Int, any Error>(failure: LoadError.timedOut).flatMapError { _ in fallback.future }
        fallback.future.cancel()
        #expect(recovered.isCancelled)
    }
}
