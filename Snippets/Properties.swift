// The code of "Background or lazy?" for properties where Swift forbids the wrappers.

// snippet.imports
import FutureProxy

// snippet.end

// snippet.hide
func buildTable() -> [String: Int] { ["a": 1, "b": 2] }
func buildIndex(of words: [String]) -> [String: Int] {
    Dictionary(words.map { ($0, $0.count) }, uniquingKeysWith: { first, _ in first })
}
// snippet.show

// snippet.sendable
final class Service: Sendable {
    let table = LazyFuture { buildTable() }  // `@Lazy var table` cannot be in a Sendable class
    var size: Int { table.count }  // with FutureProxy, the future reads as the table
}
// snippet.end
let service = Service()
print(service.table.isResolved, service.size)

// snippet.init
struct Glossary {
    let words: [String]
    @Lazy var index: [String: Int]  // `@Lazy var index = buildIndex(of: words)` cannot see `words`

    init(words: [String]) {
        self.words = words
        _index = Lazy(wrappedValue: buildIndex(of: words))  // `words` is the parameter here
    }
}
// snippet.end
let glossary = Glossary(words: ["future", "lazy"])
print(glossary.$index.isResolved, glossary.index.count)
