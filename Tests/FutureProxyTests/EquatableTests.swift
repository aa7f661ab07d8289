import FutureProxy
import Testing

@Suite("Equatable")
struct EquatableTests {
    @Test("futures are equal when their values are")
    func futuresCompareByValue() {
        let a = LazyFuture { 6 * 7 }
        let b = BackgroundFuture { 42 }
        let c = LazyFuture { 41 }
        #expect(a == b)
        #expect(a != c)
        #expect(!(a == c))
        #expect(a !== b)
    }

    @Test("a future compares with a plain value, on either side")
    func mixedEquality() {
        let answer = LazyFuture { 42 }
        #expect(answer == 42)
        #expect(42 == answer)
        #expect(answer != 41)
        #expect(41 != answer)
        #expect(!(answer == 41))
        #expect(!(41 == answer))
        #expect(!(answer != 42))
        #expect(!(42 != answer))
    }

    @Test("a future of an optional compares with nil")
    func optionalEquality() {
        let none = LazyFuture { () -> Int? in nil }
        let some = LazyFuture { () -> Int? in 3 }
        #expect(none == nil)
        #expect(some != nil)
        #expect(some == 3)
    }

    @Test("equality works where Equatable is asked for")
    func genericEquality() {
        func same<T: Equatable>(_ a: T, _ b: T) -> Bool { a == b }
        #expect(same(LazyFuture { "x" }, LazyFuture { "x" }))
        #expect(!same(LazyFuture { "x" }, LazyFuture { "y" }))
        let futures = [LazyFuture { 1 }, LazyFuture { 2 }]
        #expect(futures.contains(LazyFuture { 2 }))
        #expect(futures.firstIndex(of: LazyFuture { 2 }) == 1)
    }

    @Test("comparing runs each lazy future's work once")
    func equalityRunsOnce() {
        let runs = Counter()
        let a = LazyFuture {
            runs.increment()
            return 1
        }
        for _ in 0..<10 where a != 1 {
            Issue.record("wrong value")
        }
        #expect(runs.value == 1)
    }
}
