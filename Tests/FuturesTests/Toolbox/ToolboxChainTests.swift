import Foundation
import Testing

@testable import Futures

/// Parses a digit, failing with the test's typed error.
private func digit(_ text: String) throws(LoadError) -> Int {
    guard let value = Int(text) else { throw .unreachable(-1) }
    return value
}

// docs/design.md, Typing: one-expression chains on a source with a concrete error type compile
// with no annotation beyond the source closure's own, and a closure that does not throw never
// pulls `Never` into the source's error type. Each line below is such a chain; the types are
// checked by the annotations on the left.
@Suite("One-expression toolbox chains on a typed source")
struct ToolboxChainTests {
    @Test("timeout, delay, flatMapError, fold and reduce chain without annotations")
    func chains() throws {
        let timed: Future<Int, LoadError> = BackgroundFuture { () throws(LoadError) -> Int in 5 }
            .timeout(after: .seconds(600), failingWith: .timedOut)
        let erased: Future<Int, any Error> = BackgroundFuture { () throws(LoadError) -> Int in 5 }
            .timeout(after: .seconds(600))
        let late: Future<Int, LoadError> = LazyFuture { () throws(LoadError) -> Int in 5 }.delayed(by: .zero)
        let fallback: Future<Int, Never> = BackgroundFuture { () throws(LoadError) -> Int in throw .timedOut }
            .flatMapError { _ in LazyFuture { 0 } }
        let typedFallback: Future<Int, LoadError> = BackgroundFuture { () throws(LoadError) -> Int in throw .timedOut }
            .flatMapError { _ in Future(value: 1) }
        let folded: Future<Int, LoadError> = BackgroundFuture { () throws(LoadError) -> Int in 1 }
            .fold([Future(value: 2), Future(value: 3)]) { sum, value in Future(value: sum + value) }
        let summed: Future<Int, LoadError> = Future.reduce(0, [Future<Int, LoadError>(value: 4)]) { $0 + $1 }
        let listed: Future<[Int], LoadError> = Future.reduce(into: [], [Future<Int, LoadError>(value: 4)]) {
            $0.append($1)
        }
        let parsed: Future<Int, LoadError> = Future.reduce(0, [Future<String, LoadError>(value: "7")]) {
            (sum, text) throws(LoadError) in try sum + digit(text)
        }
        #expect(try timed.value == 5)
        #expect(try erased.value == 5)
        #expect(try late.value == 5)
        #expect(fallback.value == 0)
        #expect(try typedFallback.value == 1)
        #expect(try folded.value == 6)
        #expect(try summed.value == 4)
        #expect(try listed.value == [4])
        #expect(try parsed.value == 7)
    }

    @Test("retry, bounded all, firstSuccess and allSettled infer their types from the futures made")
    func staticForms() throws {
        let retried: Future<Int, LoadError> = Future.retry(attempts: 2) {
            BackgroundFuture { () throws(LoadError) -> Int in 5 }
        }
        let cannotFail: Future<Int, Never> = Future.retry(attempts: 2) { LazyFuture { 5 } }
        let bounded: Future<[Int], LoadError> = Future.all([1, 2], maxConcurrent: 1) { n in
            BackgroundFuture { () throws(LoadError) -> Int in n }
        }
        let doubled: Future<[Int], Never> = Future.all(1...3, maxConcurrent: 2) { n in BackgroundFuture { n * 2 } }
        let raced: Future<Int, LoadError> = Future.firstSuccess(of: [Future(value: 1), Future(failure: .timedOut)])
        let settled: Future<[Result<Int, LoadError>], Never> = Future.allSettled([Future(value: 1)])
        let resolved: Future<Int, Never> = Future(value: 3)
        #expect(try retried.value == 5)
        #expect(cannotFail.value == 5)
        #expect(try bounded.value == [1, 2])
        #expect(doubled.value == [2, 4, 6])
        #expect(try raced.value == 1)
        #expect(settled.value == [.success(1)])
        #expect(resolved.value == 3)
    }
}
