import FutureProxy
import Testing

@Suite("Subscripts")
struct SubscriptTests {
    @Test("an index subscript reads the value's element")
    func indexSubscript() {
        let primes = LazyFuture { [2, 3, 5, 7, 11] }
        #expect(primes[0] == 2)
        #expect(primes[4] == 11)
    }

    @Test("range subscripts give the value's subsequence")
    func rangeSubscripts() {
        let primes = LazyFuture { [2, 3, 5, 7, 11] }
        let tail: ArraySlice<Int> = primes[3...]
        #expect(tail == [7, 11])
        #expect(primes[..<2] == [2, 3])
        #expect(primes[1..<3] == [3, 5])
        #expect(primes[1...2] == [3, 5])
        #expect(primes[...] == [2, 3, 5, 7, 11])
    }

    @Test("a dictionary subscript looks the key up")
    func dictionarySubscript() {
        let capitals = LazyFuture { ["France": "Paris", "Japan": "Tokyo"] }
        #expect(capitals["Japan"] == "Tokyo")
        #expect(capitals["Peru"] == nil)
        #expect(capitals["Peru", default: "?"] == "?")
        #expect(capitals["France", default: "?"] == "Paris")
    }

    @Test("a string future is indexed by the string's indices")
    func stringSubscript() {
        let word = LazyFuture { "café" }
        #expect(word[word.startIndex] == "c")
        #expect(word[word.index(before: word.endIndex)] == "é")
        #expect(word[word.index(after: word.startIndex)...] == "afé")
    }

    @Test("a future that can fail has throwing subscripts with its typed error")
    func throwingSubscripts() throws {
        let numbers = LazyFuture { () throws(LoadError) -> [Int] in [1, 2, 3] }
        #expect(try numbers[1] == 2)
        #expect(try numbers[1...] == [2, 3])
        let table = LazyFuture { () throws(LoadError) -> [String: Int] in ["a": 1] }
        #expect(try table["a"] == 1)
        #expect(try table["b", default: 0] == 0)

        let broken = LazyFuture { () throws(LoadError) -> [Int] in throw .corrupt("header") }
        do throws(LoadError) {
            _ = try broken[0]
            Issue.record("the subscript did not throw")
        } catch {
            #expect(error == .corrupt("header"))
        }
        #expect(throws: LoadError.corrupt("header")) { try broken[0...] }
        let missing = LazyFuture { () throws(LoadError) -> [String: Int] in throw .missing }
        #expect(throws: LoadError.missing) { try missing["a"] }
        #expect(throws: LoadError.missing) { try missing["a", default: 0] }
    }

    @Test("subscript reads resolve exactly once", arguments: [2, 16])
    func subscriptsResolveOnce(threads: Int) {
        let runs = Counter()
        let squares = LazyFuture {
            runs.increment()
            return (0..<100).map { $0 * $0 }
        }
        let wrong = Counter()
        onThreads(threads) { thread in
            for i in 0..<100 where squares[i] != i * i || squares[i...].count != 100 - i {
                wrong.increment()
            }
        }
        #expect(runs.value == 1)
        #expect(wrong.value == 0)
    }
}
