// flatMap: inner futures of the source's error type, that cannot fail, of `any Error`; closures
// that do not throw and that throw.
import Futures

func flatMapOfTypedSources(typed: Future<Int, LoadError>, never: Future<Int, Never>) {
    expectType(typed.flatMap { _ in typed }, Future<Int, LoadError>.self)
    expectType(typed.flatMap { fetchUser($0) }, Future<User, LoadError>.self)
    expectType(typed.flatMap { _ in never }, Future<Int, LoadError>.self)
    expectType(typed.flatMap { v in LazyFuture { v + 1 } }, Future<Int, LoadError>.self)
    expectType(typed.flatMap { v in BackgroundFuture { v + 1 } }, Future<Int, LoadError>.self)
    expectType(typed.flatMap { _ in cachedCount() }, Future<Int, LoadError>.self)
    expectType(
        typed.flatMap { v in BackgroundFuture { () throws(LoadError) in try parse(v) } }, Future<Int, LoadError>.self)
    expectType(typed.flatMap { v throws(LoadError) in try fetchUser(parse(v)) }, Future<User, LoadError>.self)
    expectType(
        typed.flatMap { v throws(LoadError) in
            guard v > 0 else { throw .missing }
            return fetchUser(v)
        }, Future<User, LoadError>.self)
    expectType(
        BackgroundFuture { () throws(LoadError) -> Int in 5 }.flatMap { v in LazyFuture { v + 1 } },
        Future<Int, LoadError>.self)
    expectType(
        LazyFuture { () throws(LoadError) -> Int in 5 }.flatMap { fetchUser($0) }.map { render($0) },
        Future<String, LoadError>.self)
}

func flatMapOfUntypedSources(untyped: Future<Int, any Error>, typed: Future<Int, LoadError>, never: Future<Int, Never>)
{
    expectType(untyped.flatMap { _ in untyped }, Future<Int, any Error>.self)
    expectType(untyped.flatMap { _ in typed }, Future<Int, any Error>.self)
    expectType(untyped.flatMap { _ in never }, Future<Int, any Error>.self)
    expectType(untyped.flatMap { fetchUser($0) }, Future<User, any Error>.self)
    expectType(untyped.flatMap { v in LazyFuture { v } }, Future<Int, any Error>.self)
    expectType(untyped.flatMap { v in BackgroundFuture { try decode(v) } }, Future<String, any Error>.self)
    expectType(untyped.flatMap { v throws in fetchAnyhow(try parse(v)) }, Future<String, any Error>.self)
    expectType(untyped.flatMap { v throws -> Future<Int, any Error> in untyped }, Future<Int, any Error>.self)
    expectType(
        untyped.flatMap { v in
            _ = try decode(v)
            return fetchUser(v)
        }, Future<User, any Error>.self)
    expectType(
        untyped.flatMap { v in
            _ = try decode(v)
            return never
        }, Future<Int, any Error>.self)
    expectType(
        BackgroundFuture { try decode(1) }.flatMap { text in LazyFuture { text.count } }, Future<Int, any Error>.self)
}

func flatMapOfNeverSources(never: Future<Int, Never>, typed: Future<Int, LoadError>, untyped: Future<Int, any Error>) {
    expectType(never.flatMap { _ in never }, Future<Int, Never>.self)
    expectType(never.flatMap { _ in typed }, Future<Int, LoadError>.self)
    expectType(never.flatMap { fetchUser($0) }, Future<User, LoadError>.self)
    expectType(never.flatMap { _ in untyped }, Future<Int, any Error>.self)
    expectType(never.flatMap { v in LazyFuture { v } }, Future<Int, Never>.self)
    expectType(never.flatMap { v in LazyFuture { try decode(v) } }, Future<String, any Error>.self)
    expectType(
        never.flatMap { v in BackgroundFuture { () throws(LoadError) in try parse(v) } }, Future<Int, LoadError>.self)
    expectType(never.flatMap { v throws(LoadError) in fetchUser(try parse(v)) }, Future<User, LoadError>.self)
    expectType(never.flatMap { v throws in fetchAnyhow(try parse(v)) }, Future<String, any Error>.self)
    expectType(LazyFuture { 1 }.flatMap { fetchUser($0) }.map { render($0) }, Future<String, LoadError>.self)
    expectType(LazyFuture { 1 }.flatMap { v in LazyFuture { v * 2 } }, Future<Int, Never>.self)
}

func flatMapOfGenericSources<Failure: Error>(generic: Future<Int, Failure>, never: Future<Int, Never>) {
    expectType(generic.flatMap { _ in generic }, Future<Int, Failure>.self)
    expectType(generic.flatMap { _ in never }, Future<Int, Failure>.self)
    expectType(generic.flatMap { v in LazyFuture { v } }, Future<Int, Failure>.self)
    expectType(generic.flatMap { v throws(Failure) in generic }, Future<Int, Failure>.self)
}
