// mapError and recover, alone and inside chains.
import Futures

func mapErrorForms(typed: Future<Int, LoadError>, untyped: Future<Int, any Error>) {
    expectType(typed.mapError { _ in ParseError.badDigit }, Future<Int, ParseError>.self)
    expectType(untyped.mapError { _ in LoadError.corrupt }, Future<Int, LoadError>.self)
    expectType(typed.mapError { $0 as any Error }, Future<Int, any Error>.self)
    expectType(
        BackgroundFuture { () throws(LoadError) -> Int in 5 }.mapError { _ in ParseError.badDigit }.map { $0 + 1 },
        Future<Int, ParseError>.self)
    // Mixing two error types: convert one first.
    expectType(
        typed.mapError { _ in ParseError.badDigit }.map { v throws(ParseError) in try parseDigit(v) },
        Future<Int, ParseError>.self)
}

func recoverForms(typed: Future<Int, LoadError>, untyped: Future<Int, any Error>) {
    expectType(typed.recover { _ in 0 }, Future<Int, Never>.self)
    expectType(untyped.recover { _ in 0 }, Future<Int, Never>.self)
    expectType(
        typed.recover { error throws(ParseError) in
            if error == .missing { return 0 }
            return try parseDigit(1)
        }, Future<Int, ParseError>.self)
    expectType(typed.recover { _ in try parse(1) }, Future<Int, any Error>.self)
    expectType(untyped.recover { error in error is CancellationError ? 0 : 1 }, Future<Int, Never>.self)
    expectType(
        BackgroundFuture { () throws(LoadError) -> Int in 5 }.map { $0 + 1 }.recover { _ in 0 }, Future<Int, Never>.self
    )
    let widened: Future<Int, any Error> = typed.recover { _ in 0 }
    expectType(widened, Future<Int, any Error>.self)
}
