import Foundation
import Testing

@testable import Futures

/// The read path reads a succeeded future's value without testing the slot's case
/// (`Future._valueOfSucceededSlot`), trusting that an enum's first case keeps its payload at the
/// enum's start with a zero tag. Checked here over values whose layouts put the tag in different
/// places: extra tag bytes, the spare bits of a pointer or of a small integer, an existential's,
/// nested enums, and empty and large payloads.
struct SucceededSlotTests {
    final class Reference: Sendable, Equatable {
        let number: Int
        init(_ number: Int) { self.number = number }
        static func == (left: Reference, right: Reference) -> Bool { left === right }
    }

    enum Payloads: Sendable, Equatable {
        case number(Int)
        case text(String)
        case reference(Reference)
        case nothing
    }

    enum Small: Error, Equatable {
        case first, second
    }

    struct Large: Sendable, Equatable {
        var a = 1
        var b = "two"
        var c: [Int] = [3]
        var d: Reference? = Reference(4)
        var e = 5.5
    }

    struct Empty: Sendable, Equatable {}

    /// Every way a future gets a value, read back through the unchecked read and through `value`.
    static func check<Value: Sendable & Equatable, Failure: Error>(
        _ value: Value, failing _: Failure.Type, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let promise = Promise<Value, Failure>()
        promise.succeed(value)
        let futures: [Future<Value, Failure>] = [
            Future(value: value),
            promise.future,
            LazyFuture { () throws(Failure) -> Value in value },
            BackgroundFuture { () throws(Failure) -> Value in value },
            Future<Int, Failure>(value: 0).map { _ in value },
        ]
        for future in futures {
            _ = future.result
            #expect(future._word.hasSucceeded, sourceLocation: sourceLocation)
            #expect(future._valueOfSucceededSlot == value, sourceLocation: sourceLocation)
            #expect(future._successOnTheReadPath == value, sourceLocation: sourceLocation)
            #expect((try? future.value) == value, sourceLocation: sourceLocation)
        }
    }

    @Test("values of every layout read back whole, whatever the error type")
    func valuesOfEveryLayout() {
        let reference = Reference(7)
        for failure in [Never.self, (any Error).self, Small.self] as [any Error.Type] {
            func run<Failure: Error>(_: Failure.Type) {
                Self.check(42, failing: Failure.self)
                Self.check(Int8(-3), failing: Failure.self)
                Self.check(true, failing: Failure.self)
                Self.check(false, failing: Failure.self)
                Self.check(UInt16.max, failing: Failure.self)
                Self.check(2.5, failing: Failure.self)
                Self.check("a string too long to be stored inline in the string itself", failing: Failure.self)
                Self.check("short", failing: Failure.self)
                Self.check([1, 2, 3], failing: Failure.self)
                Self.check(reference, failing: Failure.self)
                Self.check(Int?.none, failing: Failure.self)
                Self.check(Int?.some(9), failing: Failure.self)
                Self.check(Reference?.none, failing: Failure.self)
                Self.check(Optional(reference), failing: Failure.self)
                Self.check(Payloads.number(1), failing: Failure.self)
                Self.check(Payloads.text("t"), failing: Failure.self)
                Self.check(Payloads.reference(reference), failing: Failure.self)
                Self.check(Payloads.nothing, failing: Failure.self)
                Self.check(Small.second, failing: Failure.self)
                Self.check(Large(), failing: Failure.self)
                Self.check(Empty(), failing: Failure.self)
                Self.check(Data([0, 1, 2]), failing: Failure.self)
                Self.check(Result<Int, Small>.failure(.first), failing: Failure.self)
            }
            run(failure)
        }
    }

    @Test("a reference read through the unchecked read is retained once per read, and freed after")
    func referencesAreCountedRight() {
        weak var watched: Reference?
        do {
            let reference = Reference(1)
            watched = reference
            let future = Future<Reference, any Error>(value: reference)
            for _ in 0..<1_000 { #expect(future._valueOfSucceededSlot.number == 1) }
        }
        #expect(watched == nil)
    }

    @Test("a failed or cancelled future never passes the read path's test")
    func failuresStayOffTheReadPath() {
        let failed = Future<Int, Small>(failure: .first)
        #expect(!failed._word.hasSucceeded)
        #expect(failed._successOnTheReadPath == nil)
        let promise = Promise<Int, any Error>()
        promise.fail(Small.second)
        #expect(!promise.future._word.hasSucceeded && promise.future._successOnTheReadPath == nil)
        let cancelled = Promise<Int, any Error>()
        #expect(cancelled.future.cancel())
        #expect(!cancelled.future._word.hasSucceeded && cancelled.future._successOnTheReadPath == nil)
        let thrown = LazyFuture { () throws(Small) -> Int in throw .second }
        #expect(throws: Small.second) { try thrown.value }
        #expect(!thrown._word.hasSucceeded)
    }
}
