import Testing
@testable import Futures

/// `_isAnyError` decides which futures may have a second completer (a cancellation): a wrong
/// answer either publishes a cancellable future with one add (a lost cancellation) or costs a
/// compare-and-swap. Its size test must not turn away `any Error` or let in an error type of the
/// same size.
@Suite("the any Error test")
struct AnyErrorTestTests {
    struct EmptyError: Error {}
    struct WordError: Error { var code: Int }
    final class ClassError: Error {}
    enum ByteError: Error { case one, two }

    @Test("only any Error is any Error, whatever the error type's size")
    func onlyAnyError() {
        #expect(_isAnyError((any Error).self))
        #expect(!_isAnyError(Never.self))
        #expect(!_isAnyError(EmptyError.self))
        #expect(!_isAnyError(WordError.self))
        #expect(!_isAnyError(ClassError.self))
        #expect(!_isAnyError(ByteError.self))
        #expect(!_isAnyError(CancellationError.self))
        #expect(!_isAnyError(FutureCycleError.self))
        #expect(MemoryLayout<WordError>.size == MemoryLayout<any Error>.size)
        #expect(MemoryLayout<ClassError>.size == MemoryLayout<any Error>.size)
    }

    @Test("the answer is the same from generic code")
    func fromGenericCode() {
        func generic<Failure: Error>(_: Failure.Type) -> Bool { _isAnyError(Failure.self) }
        #expect(generic((any Error).self))
        #expect(!generic(Never.self))
        #expect(!generic(WordError.self))
        #expect(!generic(ClassError.self))
    }
}
