// setFailureType(to:) and eraseFailure(): widening without `mapError`, and without warnings.
import Futures

func failureTypeForms(never: Future<Int, Never>, typed: Future<Int, LoadError>, untyped: Future<Int, any Error>) {
    expectType(never.setFailureType(to: LoadError.self), Future<Int, LoadError>.self)
    expectType(never.setFailureType(to: (any Error).self), Future<Int, any Error>.self)
    expectType(LazyFuture { 3 }.setFailureType(to: LoadError.self).map { $0 + 1 }, Future<Int, LoadError>.self)
    expectType(never.eraseFailure(), Future<Int, any Error>.self)
    expectType(typed.eraseFailure(), Future<Int, any Error>.self)
    expectType(untyped.eraseFailure(), Future<Int, any Error>.self)
    expectType(typed.eraseFailure().map { try decode($0) }, Future<String, any Error>.self)
    expectType(BackgroundFuture { () throws(LoadError) in 1 }.eraseFailure(), Future<Int, any Error>.self)
    let cancellable = LazyFuture { 3 }.eraseFailure()
    cancellable.cancel()
}

func failureTypeInGenericCode<Failure: Error>(generic: Future<Int, Failure>) {
    expectType(generic.eraseFailure(), Future<Int, any Error>.self)
}
