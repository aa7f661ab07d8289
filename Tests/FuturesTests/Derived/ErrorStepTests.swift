import Foundation
import Testing

@testable import Futures

/// `mapError` and `recover` on a pending source run as steps, as `map` does (`MapStep`): the same outcomes as on a resolved or lazy source, long chains without stack depth,
/// and nothing kept once the source is freed pending.
@Suite("mapError and recover steps on pending sources")
struct ErrorStepTests {
    enum Wrapped: Error, Equatable { case load(Int) }

    @Test("mapError on a pending source maps the error and passes the value")
    func mapErrorOnAPendingSource() throws {
        let failing = Promise<Int, TaggedError>()
        let succeeding = Promise<Int, TaggedError>()
        let mappedFailure: Future<Int, Wrapped> = failing.future.mapError { .load($0.tag) }
        let mappedValue: Future<Int, Wrapped> = succeeding.future.mapError { .load($0.tag) }
        #expect(!mappedFailure.isResolved && !mappedValue.isResolved)
        failing.fail(TaggedError(tag: 4))
        succeeding.succeed(9)
        #expect(throws: Wrapped.load(4)) { try mappedFailure.value }
        let value = try mappedValue.value
        #expect(value == 9)
    }

    @Test("a cancelled source makes its mapError cancelled")
    func mapErrorOfACancelledSource() {
        let promise = Promise<Int, any Error>()
        let mapped = promise.future.mapError { $0 }
        promise.future.cancel()
        #expect(mapped._isCancelled)
        #expect(throws: CancellationError.self) { try mapped.value }
    }

    @Test("a chain of 10,000 mapErrors and recovers on a pending promise resolves without stack depth")
    func longChains() {
        let promise = Promise<Int, TaggedError>()
        var end = promise.future
        for index in 0..<10_000 {
            if index.isMultiple(of: 2) {
                end = end.mapError { TaggedError(tag: $0.tag + 1) }
            } else {
                end = end.recover { error throws(TaggedError) in throw TaggedError(tag: error.tag + 1) }
            }
        }
        promise.fail(TaggedError(tag: 0))
        #expect(throws: TaggedError(tag: 10_000)) { try end.value }
    }

    @Test("a mapError whose pending source is freed is freed, with its transform's captures")
    func freedWithItsSource() {
        let (watched, canary) = withCanary { canary -> WeakBox<_FutureCore> in
            let promise = Promise<Int, TaggedError>()
            let mapped = promise.future.mapError { error -> Wrapped in
                _ = canary.name
                return .load(error.tag)
            }
            mapped.onComplete { _ in Issue.record("the mapError of a freed source resolved") }
            return WeakBox(mapped)
        }
        #expect(watched.isReleased && canary.isReleased)
    }
}
