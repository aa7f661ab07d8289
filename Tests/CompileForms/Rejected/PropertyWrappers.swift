// Where Swift forbids the property wrappers; the DocC article "Background or lazy?" ("Properties") says what to write.
import Futures

func buildTable() -> [String: Int] { [:] }
func buildIndex(of words: [String]) -> [String: Int] { [:] }

final class Service: Sendable {
    // expect error: stored property '_table' of 'Sendable'-conforming class 'Service' is mutable
    @Lazy var table = buildTable()
}

struct Glossary {
    let words: [String]
    // expect error: cannot use instance member 'words' within property initializer; property initializers run before 'self' is available
    @Lazy var index = buildIndex(of: words)
}
