import Foundation
import Testing

@testable import Futures

@Suite("setFailureType(to:) and eraseFailure()")
struct FailureTypeTests {
    @Test("setFailureType gives the same value with the new error type, and keeps laziness")
    func setFailureTypeKeepsValueAndLaziness() {
        let runs = CallCounter()
        let source = LazyFuture {
            runs.increment(); return 42
        }
        let typed: Future<Int, ParseError> = source.setFailureType(to: ParseError.self)
        #expect(runs.value == 0)
        #expect(!typed.isResolved)
        #expect(typed.result == .success(42))
        #expect(runs.value == 1)
    }

    @Test("setFailureType to Never gives the future itself")
    func setFailureTypeToNeverIsIdentity() {
        let source = LazyFuture { 1 }
        #expect(source.setFailureType(to: Never.self) === source)
    }

    @Test("a future that cannot fail, widened, zips with one that can")
    func widenedFutureZips() throws {
        let three = LazyFuture { 3 }
        let title = BackgroundFuture { () throws -> String in "Futures" }
        let both = zip(three.eraseFailure(), title)
        let (number, text) = try both.value
        #expect(number == 3)
        #expect(text == "Futures")
        let typed = zip(three.setFailureType(to: ParseError.self), LazyFuture { () throws(ParseError) in "x" })
        #expect(try typed.value == (3, "x"))
    }

    @Test("eraseFailure keeps the error itself, as any Error")
    func eraseFailureKeepsTheError() {
        let typed = LazyFuture { () throws(ParseError) -> Int in throw .badDigit(position: 2) }
        let erased = typed.eraseFailure()
        #expect(throws: ParseError.badDigit(position: 2)) { try erased.value }
    }

    @Test("eraseFailure of a future of any Error is that future, so cancelling it cancels the work")
    func eraseFailureOfAnyErrorIsIdentity() {
        let held = HeldContext()
        let ran = CallCounter()
        let source = BackgroundFuture(on: held.context) { () throws -> Int in
            ran.increment(); return 1
        }
        let erased = source.eraseFailure()
        #expect(erased === source)
        erased.cancel()
        held.runAll()
        #expect(ran.value == 0)
        #expect(source.isCancelled)
    }

    @Test("cancelling an erased future that cannot fail wakes its readers; the source's work goes on")
    func cancellingAnErasedFutureLeavesTheSource() {
        let gate = CompositionGate()
        let source = BackgroundFuture {
            gate.wait(); return 5
        }
        let erased = source.eraseFailure()
        #expect(erased.cancel())
        #expect(throws: CancellationError.self) { try erased.value }
        gate.open()
        #expect(source.value == 5)
    }

    @Test("eraseFailure keeps a lazy future lazy")
    func eraseFailureKeepsLaziness() throws {
        let runs = CallCounter()
        let erased = LazyFuture { () throws(ParseError) -> Int in
            runs.increment(); return 1
        }.eraseFailure()
        #expect(runs.value == 0)
        #expect(!erased.isResolved)
        #expect(try erased.value == 1)
        #expect(runs.value == 1)
    }
}
