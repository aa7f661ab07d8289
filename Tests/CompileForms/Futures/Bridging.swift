// Futures of async code and of callback APIs.
import Futures

func profile(for id: Int) async throws -> String { "profile" }
func typedProfile(for id: Int) async throws(LoadError) -> String { "profile" }
func legacyFetch(_ id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
    completion(.success("a"))
}
func legacyResize(_ id: Int, _ size: Int, completion: @escaping @Sendable (Result<Int, LoadError>) -> Void) {
    completion(.success(size))
}

func bridgingForms() {
    expectType(
        Future.task {
            await Task.yield(); return 1
        }, Future<Int, Never>.self)
    expectType(Future.task { try await profile(for: 1) }, Future<String, any Error>.self)
    expectType(
        Future.task { () async throws(LoadError) in try await typedProfile(for: 1) }, Future<String, LoadError>.self)
    expectType(
        Future<String, LoadError>.task { () async throws(LoadError) in try await typedProfile(for: 1) }.map {
            $0.count
        },
        Future<Int, LoadError>.self)
    expectType(Future<Int, LoadError>.task { 5 }, Future<Int, LoadError>.self)
    expectType(Future.task { try await profile(for: 1) }.map { $0.count }, Future<Int, any Error>.self)
    expectType(Future.task { 5 }.flatMap { fetchUser($0) }, Future<User, LoadError>.self)
    expectType(Future.task { 5 }.map { v throws(LoadError) in try parse(v) }, Future<Int, LoadError>.self)
    expectType(
        Future<String, any Error>.wrap { complete in legacyFetch(1) { complete($0) } }, Future<String, any Error>.self)
    expectType(Future<String, any Error>.wrap { complete in complete("a", nil) }, Future<String, any Error>.self)
    let fetch = Future.wrap(legacyFetch)
    expectType(fetch(1), Future<String, any Error>.self)
    let resize = Future.wrap(legacyResize)
    expectType(resize(1, 2).map { $0 * 2 }, Future<Int, LoadError>.self)
}

func asyncReads(typed: Future<Int, LoadError>, never: Future<Int, Never>) async throws(LoadError) -> Int {
    let plain = await never.get()
    return try await typed.get() + plain
}

/// A typed API whose work cannot fail: the type named where the future is made.
func cachedCountTask() -> Future<Int, LoadError> {
    Future<Int, LoadError>.task {
        await Task.yield(); return 5
    }
}
