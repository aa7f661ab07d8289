// zip, Future.all, Future.first(of:) over each kind of error type.
import Futures

func combiningForms(typed: Future<Int, LoadError>, never: Future<Int, Never>, untyped: Future<Int, any Error>) {
    expectType(zip(typed, typed.map { "\($0)" }), Future<(Int, String), LoadError>.self)
    expectType(zip(never, never, never), Future<(Int, Int, Int), Never>.self)
    expectType(zip(untyped, fetchAnyhow(1)), Future<(Int, String), any Error>.self)
    expectType(zip(LazyFuture { 1 }, BackgroundFuture { "a" }), Future<(Int, String), Never>.self)
    expectType(zip(typed, never.setFailureType(to: LoadError.self)), Future<(Int, Int), LoadError>.self)
    expectType(zip(typed.eraseFailure(), untyped), Future<(Int, Int), any Error>.self)
    expectType(Future.all([typed, typed]), Future<[Int], LoadError>.self)
    expectType(Future.all([1, 2].map { n in BackgroundFuture { n * 2 } }), Future<[Int], Never>.self)
    expectType(Future.all([1, 2].map { n in BackgroundFuture { try decode(n) } }), Future<[String], any Error>.self)
    expectType(Future.all([never.eraseFailure(), untyped]), Future<[Int], any Error>.self)
    expectType(Future.first(of: [typed, typed]), Future<Int, LoadError>.self)
    expectType(Future.first(of: [1, 2].map { n in LazyFuture { n } }), Future<Int, Never>.self)
    expectType(zip(typed, typed).map { $0 + $1 }, Future<Int, LoadError>.self)
}
