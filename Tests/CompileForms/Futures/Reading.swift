// Reading a future: blocking, peeking, with a deadline, from async code.
import Futures

func readingForms(typed: Future<Int, LoadError>, never: Future<Int, Never>, untyped: Future<Int, any Error>) throws {
    expectType(never.value, Int.self)
    expectType(try typed.value, Int.self)
    expectType(try untyped.value, Int.self)
    expectType(typed.result, Result<Int, LoadError>.self)
    expectType(typed.peek, Result<Int, LoadError>?.self)
    expectType(typed.result(timeout: .milliseconds(50)), Result<Int, LoadError>?.self)
    expectType(never.isResolved, Bool.self)
    do {
        _ = try typed.value
    } catch {
        expectType(error, LoadError.self)
    }
    switch typed.result {
    case .success(let value): show("\(value)")
    case .failure(.missing): show("missing")
    case .failure(.corrupt): show("corrupt")
    }
}

func genericRead<Value>(_ future: Future<Value, Never>) -> Value { future.value }

func asyncReadingForms(never: Future<Int, Never>, untyped: Future<Int, any Error>) async throws -> Int {
    let index = LazyFuture { buildIndex(of: ["a"]) }
    return try await untyped.get() + never.get() + index.get().count
}

func promiseForms() {
    let promise = Promise<Int, LoadError>()
    promise.succeed(1)
    promise.fail(.missing)
    promise.complete(with: .success(2))
    let ready = Promise<Void, Never>()
    ready.succeed()
    expectType(promise.future.map { $0 + 1 }, Future<Int, LoadError>.self)
}

func deferredForms(user: Future<User, LoadError>) {
    expectType(user.deferred.name, Future<String, LoadError>.self)
    expectType(LazyFuture { "report" }.deferred.count, Future<Int, Never>.self)
}
