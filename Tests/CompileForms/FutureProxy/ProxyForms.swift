// With `import FutureProxy`: forwarding, and the combinators keep resolving as without it.
import FutureProxy

enum FetchError: Error {
    case offline
}

struct Page: Sendable {
    var title: String
    var words: [String]
}

func loadNames() -> [String] { ["Grace", "Ada"] }
func fetchPage() throws(FetchError) -> Page { Page(title: "Futures", words: ["implicit"]) }

/// Compiles only if `value` has exactly the type `type`.
func expectType<T>(_ value: T, _ type: T.Type) {}

func forwardingForms() throws {
    let names = LazyFuture { loadNames() }
    expectType(names.count, Int.self)
    expectType(names[0], String.self)
    expectType(names().sorted(), [String].self)
    let page = BackgroundFuture { () throws(FetchError) in try fetchPage() }
    expectType(try page.title, String.self)
    let untypedPage = BackgroundFuture { try fetchPage() }  // `try` alone: any Error
    expectType(untypedPage, BackgroundFuture<Page, any Error>.self)
    let answer = LazyFuture { 6 * 7 }
    expectType(answer == 42, Bool.self)
    expectType(answer + 1, Int.self)
}

func combinatorsWithProxy(names: Future<[String], Never>, typed: Future<[Int], FetchError>) {
    expectType(names.map { $0.count }, Future<Int, Never>.self)
    expectType(names.map { $0.joined() }, Future<String, Never>.self)
    expectType(names.flatMap { list in LazyFuture { list.count } }, Future<Int, Never>.self)
    expectType(typed.map { $0.count }, Future<Int, FetchError>.self)
    expectType(typed.flatMap { list in LazyFuture { list.count } }, Future<Int, FetchError>.self)
    expectType(BackgroundFuture { () throws(FetchError) in [1, 2] }.map { $0.count }, Future<Int, FetchError>.self)
    expectType(names().map { $0.count }, [Int].self)
}

// What to write where the language forbids a property wrapper: a `let` of the future, which
// stands in for its value with FutureProxy.
final class Catalog: Sendable {
    let names = LazyFuture { loadNames() }
    let page = BackgroundFuture { () throws(FetchError) in try fetchPage() }

    var summary: String {
        get throws(FetchError) { "\(names.count) names, \(try page.title)" }
    }
}
