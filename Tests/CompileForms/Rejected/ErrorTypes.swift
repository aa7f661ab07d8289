// Chains that mix error types that do not join: two concrete types, or a concrete source with a
// closure or inner future of `any Error`. Each says what to write.
import Futures

enum LoadError: Error { case missing }
enum ParseError: Error { case badDigit }
func parse(_ value: Int) throws(LoadError) -> Int { value }
func parseDigit(_ value: Int) throws(ParseError) -> Int { value }
func decode(_ value: Int) throws -> String { "\(value)" }

func mixedMaps(typed: Future<Int, LoadError>) {
    // expect error: 'map(fileID:line:_:)' is unavailable: the closure throws an error type other than this future's
    _ = typed.map { v throws(ParseError) in try parseDigit(v) }
    // expect error: a closure with 'try' throws 'any Error' unless it declares its type
    _ = typed.map { try parse($0) }
    // expect error: or convert the future's error first with 'mapError', or widen it with 'eraseFailure()'
    _ = typed.map { try decode($0) }
    // expect error: 'map(fileID:line:_:)' is unavailable: the closure throws an error type other than this future's
    _ = BackgroundFuture { () throws(LoadError) -> Int in 5 }.map { v throws(ParseError) in try parseDigit(v) }
}

func mixedFlatMaps(typed: Future<Int, LoadError>, other: Future<Int, ParseError>, untyped: Future<Int, any Error>) {
    // expect error: 'flatMap(fileID:line:_:)' is unavailable: the closure or the future it returns fails with an error type other than this future's
    _ = typed.flatMap { _ in other }
    // expect error: give the inner future this future's error type
    _ = typed.flatMap { _ in untyped }
    // expect error: or widen both with 'eraseFailure()'
    _ = typed.flatMap { v in BackgroundFuture { try decode(v) } }
}

func mixedZips(never: Future<Int, Never>, untyped: Future<Int, any Error>, typed: Future<Int, LoadError>) {
    // expect error: 'zip(_:fileID:line:)' is unavailable: zip needs futures of one error type; widen one that cannot fail with 'setFailureType(to:)' or 'eraseFailure()'
    _ = zip(never, untyped)
    // expect error: zip needs futures of one error type
    _ = zip(typed, untyped, never)
}
