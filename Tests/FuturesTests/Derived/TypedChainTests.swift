import Foundation
import Testing

@testable import Futures

/// What the overloads that join error types do at run time (which ones are picked, and which
/// chains compile, is checked by scripts/check-compile-forms).
@Suite("typed-error chains: the overloads that join error types")
struct TypedChainTests {
    @Test("a one-expression chain on a typed source keeps its error type and its failure")
    func oneExpressionChainKeepsTypedFailure() {
        let succeeding = BackgroundFuture { () throws(ParseError) -> Int in 5 }.map { $0 + 1 }
        let failing = LazyFuture { () throws(ParseError) -> Int in throw .empty }.map { $0 * 2 }.map { $0 + 1 }
        #expect(succeeding.result == .success(6))
        #expect(failing.result == .failure(.empty))
    }

    @Test("map of a future that cannot fail takes the transform's error type and error")
    func mapOfNeverTakesTheTransformsError() {
        let source = LazyFuture { 7 }
        let parsed = source.map { value throws(ParseError) in
            guard value < 5 else { throw .badDigit(position: value) }
            return value
        }
        #expect(parsed.result == .failure(.badDigit(position: 7)))
        let fine = source.map { value throws(ParseError) in value * 2 }
        #expect(fine.result == .success(14))
    }

    @Test("flatMap to a future that cannot fail keeps the source's error, and its failure")
    func flatMapToNeverKeepsTheSourcesError() {
        let failing = LazyFuture { () throws(ParseError) -> Int in throw .empty }
        let chained = failing.flatMap { value in LazyFuture { value + 1 } }
        #expect(chained.result == .failure(.empty))
        let succeeding = LazyFuture { () throws(ParseError) -> Int in 1 }.flatMap { value in LazyFuture { value + 1 } }
        #expect(succeeding.result == .success(2))
    }

    @Test("flatMap of a future that cannot fail fails with the inner future's error")
    func flatMapOfNeverFailsWithTheInnersError() {
        let inner = Promise<Int, ParseError>()
        let chained = LazyFuture { 1 }.flatMap { _ in inner.future }
        inner.fail(.badDigit(position: 3))
        #expect(chained.result == .failure(.badDigit(position: 3)))
    }

    @Test("flatMap of a future of any Error to a typed future keeps the inner error itself")
    func flatMapOfAnyErrorToTypedKeepsTheError() {
        let source = BackgroundFuture { () throws -> Int in 1 }
        let inner = Promise<Int, ParseError>()
        let chained = source.flatMap { _ in inner.future }
        inner.fail(.badDigit(position: 9))
        #expect(throws: ParseError.badDigit(position: 9)) { try chained.value }
    }

    @Test("a cancelled inner future of any Error cancels the flatMap's future", arguments: [false, true])
    func cancelledInnerCancelsTheChild(throwingClosure: Bool) {
        let inner = Promise<Int, any Error>()
        let source = BackgroundFuture { () throws -> Int in 1 }
        let chained =
            throwingClosure
            ? source.flatMap { value throws in value > 0 ? inner.future : inner.future }
            : LazyFuture { 1 }.flatMap { _ in inner.future }
        inner.future.cancel()
        #expect(throws: CancellationError.self) { try chained.value }
        #expect(chained.isCancelled)
    }

    @Test("a cancelled source of any Error cancels a flatMap to a future that cannot fail")
    func cancelledSourceCancelsFlatMapToNever() {
        let source = Promise<Int, any Error>().future
        let innerRuns = CallCounter()
        let chained = source.flatMap { value in
            LazyFuture {
                innerRuns.increment(); return value
            }
        }
        source.cancel()
        #expect(chained.isCancelled)
        #expect(innerRuns.value == 0)
    }

    @Test("every joining overload keeps a lazy source lazy: nothing runs until the end is read")
    func joiningOverloadsKeepLaziness() {
        let runs = CallCounter()
        let never = LazyFuture {
            runs.increment(); return 2
        }
        let untyped = LazyFuture { () throws -> Int in
            runs.increment(); return 3
        }
        let typed = LazyFuture { () throws(ParseError) -> Int in
            runs.increment(); return 4
        }
        let chains: [Future<Int, any Error>] = [
            never.map { value throws in value },
            never.flatMap { value in LazyFuture { () throws -> Int in value } },
            untyped.flatMap { value in LazyFuture { value } },
            untyped.flatMap { value in typed.map { $0 + value } },
            typed.flatMap { value in LazyFuture { value } }.eraseFailure(),
        ]
        #expect(runs.value == 0)
        #expect(chains.allSatisfy { !$0.isResolved })
        #expect(chains.map { try? $0.value } == [2, 2, 3, 7, 4])
        #expect(runs.value == 3)
    }

    @Test("a transform that throws any Error on a future that cannot fail gives that error")
    func untypedTransformOnNever() {
        struct Refused: Error {}
        let refused = LazyFuture { 1 }.map { _ throws -> Int in throw Refused() }
        #expect(throws: Refused.self) { try refused.value }
    }
}
