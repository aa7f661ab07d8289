// Making futures: the error type from the closure, or from the context for work that cannot fail.
import Futures

func creatingForms() {
    expectType(BackgroundFuture { 1 }, BackgroundFuture<Int, Never>.self)
    expectType(LazyFuture { 1 }, LazyFuture<Int, Never>.self)
    expectType(BackgroundFuture { try decode(1) }, BackgroundFuture<String, any Error>.self)
    expectType(LazyFuture { () throws(LoadError) in try parse(1) }, LazyFuture<Int, LoadError>.self)
    expectType(BackgroundFuture(after: .milliseconds(5)) { 1 }, BackgroundFuture<Int, Never>.self)
    expectType(BackgroundFuture(on: .immediate) { 1 }, BackgroundFuture<Int, Never>.self)
    // With a context that asks for a concrete error type, a closure that does not throw must
    // say so (Swift 6.3 does not convert its `Never` to that type): see Rejected/Creating.swift.
    let typed: Future<Int, LoadError> = BackgroundFuture { () throws(LoadError) in 1 }
    let untyped: Future<Int, any Error> = LazyFuture { 1 }
    expectType(typed, Future<Int, LoadError>.self)
    expectType(untyped, Future<Int, any Error>.self)
    expectType(LazyFuture { 1 }.setFailureType(to: LoadError.self), Future<Int, LoadError>.self)
    expectType([1, 2].map { n in LazyFuture { n } }, [LazyFuture<Int, Never>].self)
}

/// Typed APIs whose work cannot fail: `setFailureType(to:)`, or a closure that declares the type.
func cachedUser() -> Future<User, LoadError> {
    BackgroundFuture { User(name: "Ada", avatarURL: "a.png") }.setFailureType(to: LoadError.self)
}

func cachedName() -> Future<String, LoadError> {
    LazyFuture { () throws(LoadError) in "Ada" }
}

func lazyCount() -> Future<Int, any Error> {
    LazyFuture { 3 }
}
