import FutureProxy
import Testing

@Suite("Hashable")
struct HashableTests {
    @Test("a future hashes as its value")
    func hashesAsValue() {
        let word = LazyFuture { "swift" }
        #expect(word.hashValue == "swift".hashValue)
        var left = Hasher()
        left.combine(word)
        var right = Hasher()
        right.combine("swift")
        #expect(left.finalize() == right.finalize())
    }

    @Test("a Set of futures keeps one per value")
    func setOfFutures() {
        let tags: Set = [LazyFuture { "swift" }, BackgroundFuture { "swift" }, LazyFuture { "futures" }]
        #expect(tags.count == 2)
        #expect(tags.contains(LazyFuture { "futures" }))
        #expect(!tags.contains(LazyFuture { "rust" }))
        #expect(Set(tags.map { $0.value }) == ["swift", "futures"])
    }

    @Test("futures are dictionary keys by value")
    func dictionaryKeys() {
        var scores: [Future<String, Never>: Int] = [:]
        scores[LazyFuture { "ada" }] = 1
        scores[BackgroundFuture { "ada" }, default: 0] += 1
        #expect(scores.count == 1)
        #expect(scores[LazyFuture { "ada" }] == 2)
    }
}
