import FutureProxy
import Testing

/// A sequence that is not a collection: the numbers below a limit.
struct Countdown: Sequence, Sendable {
    let from: Int

    func makeIterator() -> some IteratorProtocol<Int> {
        var next = from
        return AnyIterator {
            guard next > 0 else { return nil }
            defer { next -= 1 }
            return next
        }
    }
}

@Suite("Sequence")
struct SequenceTests {
    @Test("for x in future iterates the value")
    func forIn() {
        let numbers = LazyFuture { [1, 2, 3] }
        var seen: [Int] = []
        for x in numbers { seen.append(x) }
        #expect(seen == [1, 2, 3])
    }

    @Test("a future of a sequence that is not a collection iterates too")
    func plainSequence() {
        let countdown = LazyFuture { Countdown(from: 3) }
        var seen: [Int] = []
        for x in countdown { seen.append(x) }
        #expect(seen == [3, 2, 1])
        #expect(countdown.reduce(0, +) == 6)
        #expect(countdown.contains(2))
        #expect(Array(countdown) == [3, 2, 1])
    }

    @Test("sequence algorithms work on a future, each iteration reading the resolved value")
    func algorithms() {
        let runs = Counter()
        let words = LazyFuture {
            runs.increment()
            return ["pear", "fig", "apple"]
        }
        #expect(words.contains("fig"))
        #expect(words.sorted() == ["apple", "fig", "pear"])
        #expect(words.filter { $0.count > 3 } == ["pear", "apple"])
        #expect(words.reduce("") { $0 + $1.prefix(1) } == "pfa")
        #expect(words.joined(separator: ",") == "pear,fig,apple")
        #expect(Array(words) == ["pear", "fig", "apple"])
        #expect(words.underestimatedCount == 3)
        #expect(words.withContiguousStorageIfAvailable { $0.count } == 3)
        #expect(runs.value == 1)
    }

    @Test("a future is accepted where a Sequence is asked for")
    func genericSequence() {
        func total(_ numbers: some Sequence<Int>) -> Int { numbers.reduce(0, +) }
        #expect(total(LazyFuture { [1, 2, 3] }) == 6)
        #expect(total(BackgroundFuture { Countdown(from: 4) }) == 10)
    }
}
