// Names the forms use. Every form is a function body: the forms are compiled, never run.
import Futures

enum LoadError: Error, Equatable {
    case missing
    case corrupt
}

enum ParseError: Error {
    case badDigit
}

struct User: Sendable {
    var name: String
    var avatarURL: String
}

/// The issue's `parse`: a function that throws the source's error type.
func parse(_ value: Int) throws(LoadError) -> Int { value }
func parseDigit(_ value: Int) throws(ParseError) -> Int { value }
func decode(_ value: Int) throws -> String { "\(value)" }
func fetchUser(_ id: Int) -> Future<User, LoadError> {
    LazyFuture { () throws(LoadError) in User(name: "Ada", avatarURL: "a.png") }
}
func fetchAnyhow(_ id: Int) -> Future<String, any Error> { LazyFuture { () throws in "page \(id)" } }
func cachedCount() -> Future<Int, Never> { LazyFuture { 3 } }
func render(_ user: User) -> String { user.name }
func show(_ text: String) {}

/// Compiles only if `value` has exactly the type `type`.
func expectType<T>(_ value: T, _ type: T.Type) {}
