import Testing

@testable import Futures

@Suite("Future(value:), Future(failure:), Future(result:)")
struct ResolvedFutureTests {
    @Test("a future made with a value is resolved at creation and reads without try")
    func valueIsResolvedAtCreation() {
        let answer = Future(value: 42)
        let typed: Future<Int, Never> = answer
        #expect(typed.isResolved)
        #expect(typed.peek == .success(42))
        #expect(answer.value == 42)
    }

    @Test("the error type of a future made with a value can be annotated")
    func valueWithAnnotatedFailure() throws {
        let loaded: Future<String, LoadError> = Future(value: "page")
        #expect(try loaded.value == "page")
        let erased = Future<Int, any Error>(value: 7)
        #expect(try erased.value == 7)
    }

    @Test("a future made with a failure fails every reader, callback and derived future")
    func failureReachesEveryone() {
        let failed = Future<Int, LoadError>(failure: .unreachable(3))
        #expect(failed.isResolved)
        #expect(throws: LoadError.unreachable(3)) { try failed.value }
        #expect(failed.result == .failure(.unreachable(3)))
        #expect(failed.map { $0 + 1 }.peek == .failure(.unreachable(3)))
        let seen = Collector<LoadError>()
        failed.onFailure { seen.append($0) }
        #expect(seen.all == [.unreachable(3)])
    }

    @Test("a future made with a failure fails get()")
    func failureReachesAsyncReaders() async {
        let failed = Future<Int, LoadError>(failure: .unreachable(3))
        await #expect(throws: LoadError.unreachable(3)) { try await failed.get() }
    }

    @Test("a future made from a result keeps it")
    func resultIsKept() {
        let good = Future(result: Result<Int, ParseError>.success(1))
        let bad = Future(result: Result<Int, ParseError>.failure(.empty))
        #expect(good.peek == .success(1))
        #expect(bad.peek == .failure(.empty))
    }

    @Test("a resolved future is neither lazy nor cancelled, and cancel() on it does nothing")
    func resolvedFutureIsFinal() throws {
        let future = Future<Int, any Error>(value: 1)
        #expect(!future._isLazyKind)
        #expect(!future.cancel())
        #expect(!future.isCancelled)
        #expect(try future.value == 1)
    }
}
