// The property wrappers where the language allows them, and what to write where it does not.
import Dispatch  // for `.utility`: a member of Dispatch needs its import (SE-0444)
import Futures

func buildIndex(of words: [String]) -> [String: Int] {
    Dictionary(words.map { ($0, $0.count) }, uniquingKeysWith: { first, _ in first })
}

struct Glossary {
    let words: [String]
    @Lazy var index: [String: Int]
    @Background var sorted: [String]

    // A wrapped property's initial value cannot use another property (`@Lazy var index =
    // buildIndex(of: words)` does not compile): initialize the wrapper in `init`, from the
    // parameter.
    init(words: [String]) {
        self.words = words
        _index = Lazy(wrappedValue: buildIndex(of: words))
        _sorted = Background(wrappedValue: words.sorted())
    }
}

struct Screen: Sendable {
    @Background var header = buildIndex(of: ["header"])
    @Background(on: .global(qos: .utility)) var footer = buildIndex(of: ["footer"])
    @Lazy var details = buildIndex(of: ["details"])
}

// A `Sendable` class cannot hold a wrapper (its storage is a `var`): keep the future in a `let`.
final class Service: Sendable {
    let table = LazyFuture { buildIndex(of: ["a", "b"]) }
    let header: BackgroundFuture<[String: Int], Never>

    init(names: [String]) {
        header = BackgroundFuture { buildIndex(of: names) }
    }

    var count: Int { table.value.count + header.value.count }
}

func propertyWrapperForms() async {
    let glossary = Glossary(words: ["future", "lazy"])
    expectType(glossary.index, [String: Int].self)
    expectType(glossary.$index, LazyFuture<[String: Int], Never>.self)
    expectType(await glossary.$sorted.get(), [String].self)
    let screen = Screen()
    expectType(screen.$header.isResolved, Bool.self)
    @Lazy var local = buildIndex(of: ["local"])
    expectType(local.count, Int.self)
    expectType(Service(names: ["x"]).count, Int.self)
}
