import Foundation
import Synchronization
import Testing
@testable import Futures

@Suite("zip, all, first(of:)")
struct CombiningTests {
    @Test("zip combines three futures of different types into one tuple")
    func zipOfThreeTypes() {
        let number = BackgroundFuture { 42 }
        let text = LazyFuture { "answer" }
        let flag = Promise<Bool, Never>()
        let zipped: Future<(Int, String, Bool), Never> = zip(number, text, flag.future)
        #expect(zipped.result(timeout: .zero) == nil)
        flag.succeed(true)
        let (a, b, c) = zipped.value
        #expect(a == 42 && b == "answer" && c)
    }

    @Test("zip of lazy futures is lazy and fails with the first failure by position")
    func zipIsLazyAndFailsByPosition() {
        let runs = CallCounter()
        let first = LazyFuture { () throws(TaggedError) -> Int in runs.increment(); throw TaggedError(tag: 1) }
        let second = LazyFuture { () throws(TaggedError) -> String in runs.increment(); throw TaggedError(tag: 2) }
        let zipped = zip(first, second)
        #expect(runs.value == 0)
        #expect(throws: TaggedError(tag: 1)) { try zipped.value }
    }

    @Test("all keeps the order of 500 futures completed in random order from many threads")
    func allKeepsOrder() {
        let promises = (0..<500).map { _ in Promise<Int, Never>() }
        let combined = Future.all(promises.map(\.future))
        let order = (0..<500).shuffled()
        DispatchQueue.concurrentPerform(iterations: 500) { step in
            let index = order[step]
            promises[index].succeed(index * 2)
        }
        #expect(combined.value == (0..<500).map { $0 * 2 })
    }

    @Test("all fails with the first failure by position, whatever the order of failures", arguments: 0..<20)
    func allFirstFailureByPositionWins(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed))
        let promises = (0..<500).map { _ in Promise<Int, TaggedError>() }
        let failing = Set((0..<500).shuffled(using: &generator).prefix(5))
        let combined = Future.all(promises.map(\.future))
        for index in (0..<500).shuffled(using: &generator) {
            if failing.contains(index) {
                promises[index].fail(TaggedError(tag: index))
            } else {
                promises[index].succeed(index)
            }
        }
        #expect(throws: TaggedError(tag: failing.min()!)) { try combined.value }
    }

    @Test("all fails as soon as the first failure's predecessors have succeeded")
    func allFailsEarly() {
        let promises = (0..<3).map { _ in Promise<Int, TaggedError>() }
        let combined = Future.all(promises.map(\.future))
        promises[1].fail(TaggedError(tag: 1))
        #expect(combined.result(timeout: .zero) == nil)
        promises[0].succeed(0)
        #expect(throws: TaggedError(tag: 1)) { try combined.value }
    }

    @Test("all of 10,000 futures completes without overflowing the stack", arguments: [true, false])
    func allOfTenThousand(lazy: Bool) {
        let futures: [Future<Int, Never>] = (0..<10_000).map { index in
            lazy ? LazyFuture { index } : BackgroundFuture { index }
        }
        let combined = Future.all(futures)
        #expect(combined.value.count == 10_000)
        #expect(combined.value.last == 9_999)
    }

    @Test("all of no futures is an empty array at once")
    func allOfNothing() {
        let combined = Future<Int, Never>.all([])
        #expect(combined.isResolved)
        #expect(combined.value.isEmpty)
    }

    @Test("first(of:) resolves like the first future to resolve")
    func firstOf() {
        let slow = Promise<Int, TaggedError>()
        let fast = Promise<Int, TaggedError>()
        let winner = Future.first(of: [slow.future, fast.future])
        fast.fail(TaggedError(tag: 9))
        slow.succeed(1)
        #expect(throws: TaggedError(tag: 9)) { try winner.value }

        let lazyRuns = CallCounter()
        let lazyWinner = Future.first(of: [LazyFuture { lazyRuns.increment(); return 1 }])
        #expect(lazyRuns.value == 0)
        #expect(lazyWinner.value == 1)
    }

    @Test("a reader of first(of:) runs no more sources once one has decided the race")
    func firstOfStopsAtTheWinner() {
        let runs = CallCounter()
        let sources = (0..<8).map { index in LazyFuture { runs.increment(); return index } }
        let winner = Future.first(of: sources)
        _ = winner.value
        #expect(runs.value == 1)
        #expect(sources.filter(\.isResolved).count == 1)
    }

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("first(of:) with no futures traps with a message that names the caller's line")
        func firstOfNothingTraps() async {
            let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = Future<Int, Never>.first(of: [])
            }
            let errorText = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
            #expect(errorText.contains("Future.first(of:) needs at least one future; it was given none"))
            #expect(errorText.contains("FuturesTests/CombiningTests.swift:"))
        }
    #endif
}

/// A small deterministic generator (SplitMix64), so a failing seed can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
