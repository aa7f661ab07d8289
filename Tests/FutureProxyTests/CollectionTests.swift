import FutureProxy
import Testing

@Suite("Collection, BidirectionalCollection, RandomAccessCollection")
struct CollectionTests {
    @Test("a future passed to a function that asks for some Collection just works")
    func someCollection() {
        func describe(_ items: some Collection<String>) -> String {
            "\(items.count): \(items.first ?? "-")…\(items.dropFirst().joined(separator: ","))"
        }
        let names = LazyFuture { ["Ada", "Alan", "Grace"] }
        #expect(describe(names) == "3: Ada…Alan,Grace")
    }

    @Test("collection members read the value's")
    func collectionMembers() {
        let primes = LazyFuture { [2, 3, 5, 7] }
        #expect(primes.count == 4)
        #expect(!primes.isEmpty)
        #expect(primes.first == 2)
        #expect(primes.startIndex == 0)
        #expect(primes.endIndex == 4)
        #expect(primes.indices == 0..<4)
        #expect(primes.index(after: 1) == 2)
        var i = 0
        primes.formIndex(after: &i)
        #expect(i == 1)
        #expect(primes.index(0, offsetBy: 3) == 3)
        #expect(primes.index(0, offsetBy: 9, limitedBy: 4) == nil)
        #expect(primes.distance(from: 1, to: 4) == 3)
        #expect(primes.firstIndex(of: 5) == 2)
        #expect(LazyFuture { [Int]() }.isEmpty)
    }

    @Test("a future of a collection is bidirectional when the value is")
    func bidirectional() {
        func lastTwo<C: BidirectionalCollection>(_ c: C) -> [C.Element] { Array(c.suffix(2)) }
        let word = LazyFuture { "swift" }
        #expect(lastTwo(word) == ["f", "t"])
        #expect(word.last == "t")
        #expect(String(word.reversed()) == "tfiws")
        var i = word.endIndex
        word.formIndex(before: &i)
        #expect(word[i] == "t")
        #expect(word[word.index(before: i)] == "f")
    }

    @Test("a future of a collection is random-access when the value is")
    func randomAccess() {
        func middle<C: RandomAccessCollection>(_ c: C) -> C.Element { c[c.index(c.startIndex, offsetBy: c.count / 2)] }
        let samples = BackgroundFuture { Array(0..<101) }
        #expect(middle(samples) == 50)
        #expect(samples.last == 100)
        let slice: ArraySlice<Int> = samples[10..<12]
        #expect(slice == [10, 11])
    }

    @Test("generic code over a future of a collection reads without try")
    func genericSize() {
        #expect(size(LazyFuture { [1, 2, 3] }) == 3)
        #expect(size(LazyFuture { "hello" }) == 5)
        #expect(firstOrNil(BackgroundFuture { [9, 8] }) == 9)
    }
}

// The generic code the issue asks to compile: no `try` where Failure == Never.
func size<C: Collection>(_ f: Future<C, Never>) -> Int { f.count }
func firstOrNil<C: Collection>(_ f: Future<C, Never>) -> C.Element? { f.isEmpty ? nil : f[f.startIndex] }
