// map on sources that fail with a typed error, with `any Error`, with `Never`, and generic ones;
// closures that do not throw, that throw the source's type, and that say `try`.
import Futures

func mapOfTypedSources(typed: Future<Int, LoadError>) {
    expectType(typed.map { $0 + 1 }, Future<Int, LoadError>.self)
    expectType(typed.map { v in v + 1 }, Future<Int, LoadError>.self)
    expectType(typed.map { "\($0)" }, Future<String, LoadError>.self)
    expectType(typed.map { v throws(LoadError) in try parse(v) }, Future<Int, LoadError>.self)
    expectType(typed.map { (v: Int) throws(LoadError) -> Int in try parse(v) }, Future<Int, LoadError>.self)
    expectType(
        typed.map { v throws(LoadError) in
            guard v > 0 else { throw .missing }
            return v
        }, Future<Int, LoadError>.self)
    expectType(
        typed.map { v in
            let doubled = v * 2
            return doubled + 1
        }, Future<Int, LoadError>.self)
    expectType(typed.map { _ in () }, Future<Void, LoadError>.self)
    expectType(BackgroundFuture { () throws(LoadError) in 1 }.map { $0 + 1 }, Future<Int, LoadError>.self)
    expectType(LazyFuture { () throws(LoadError) in 1 }.map { $0 + 1 }.map { "\($0)" }, Future<String, LoadError>.self)
    let annotated: Future<Int, LoadError> = typed.map { $0 + 1 }
    expectType(annotated, Future<Int, LoadError>.self)
}

func mapOfUntypedSources(untyped: Future<Int, any Error>) {
    expectType(untyped.map { $0 + 1 }, Future<Int, any Error>.self)
    expectType(untyped.map { try decode($0) }, Future<String, any Error>.self)
    expectType(untyped.map { try parse($0) }, Future<Int, any Error>.self)
    expectType(untyped.map { v throws(LoadError) in try parse(v) }, Future<Int, any Error>.self)
    expectType(untyped.map { v throws -> Int in try parse(v) }, Future<Int, any Error>.self)
    expectType(BackgroundFuture { try decode(1) }.map { $0.count }, Future<Int, any Error>.self)
    expectType(BackgroundFuture { try decode(1) }.map { try decode($0.count) }, Future<String, any Error>.self)
}

func mapOfNeverSources(never: Future<Int, Never>) {
    expectType(never.map { $0 + 1 }, Future<Int, Never>.self)
    expectType(never.map { try decode($0) }, Future<String, any Error>.self)
    expectType(never.map { v throws(LoadError) in try parse(v) }, Future<Int, LoadError>.self)
    expectType(LazyFuture { 1 }.map { $0 + 1 }, Future<Int, Never>.self)
    expectType(LazyFuture { 1 }.map { try decode($0) }, Future<String, any Error>.self)
    expectType(BackgroundFuture { 1 }.map { v throws(ParseError) in try parseDigit(v) }, Future<Int, ParseError>.self)
}

func mapOfGenericSources<Failure: Error>(generic: Future<Int, Failure>) {
    expectType(generic.map { $0 + 1 }, Future<Int, Failure>.self)
    expectType(generic.map { v throws(Failure) in v }, Future<Int, Failure>.self)
}

func mapOfSubclasses(background: BackgroundFuture<Int, LoadError>, lazy: LazyFuture<Int, Never>) {
    expectType(background.map { $0 + 1 }, Future<Int, LoadError>.self)
    expectType(lazy.map { try decode($0) }, Future<String, any Error>.self)
}
