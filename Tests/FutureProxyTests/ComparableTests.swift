import FutureProxy
import Testing

@Suite("Comparable")
struct ComparableTests {
    @Test("max(), min() and sorted() work over futures")
    func maxOverFutures() {
        let times = [LazyFuture { 30 }, BackgroundFuture { 12 }, LazyFuture { 45 }]
        #expect(times.max()?.value == 45)
        #expect(times.min()?.value == 12)
        #expect(times.sorted().map { $0.value } == [12, 30, 45])
        #expect(times.max() === times[2])
    }

    @Test("two futures compare by value with all four operators")
    func futureAgainstFuture() {
        let one = LazyFuture { 1 }
        let two = LazyFuture { 2 }
        let otherTwo = BackgroundFuture { 2 }
        #expect(one < two)
        #expect(!(two < one))
        #expect(one <= two)
        #expect(two <= otherTwo)
        #expect(!(two <= one))
        #expect(two > one)
        #expect(!(one > two))
        #expect(two >= otherTwo)
        #expect(!(one >= two))
    }

    @Test("a future compares with a plain value: all six operators, both sides")
    func mixedComparisons() {
        let f = LazyFuture { 5 }
        #expect(f < 10)
        #expect(!(f < 5))
        #expect(f <= 5)
        #expect(!(f <= 4))
        #expect(f > 4)
        #expect(!(f > 5))
        #expect(f >= 5)
        #expect(!(f >= 6))
        #expect(f == 5)
        #expect(f != 6)

        #expect(4 < f)
        #expect(!(5 < f))
        #expect(5 <= f)
        #expect(!(6 <= f))
        #expect(10 > f)
        #expect(!(5 > f))
        #expect(5 >= f)
        #expect(!(4 >= f))
        #expect(5 == f)
        #expect(6 != f)
    }

    @Test("the value's own operators are used, not ones derived from <")
    func valueOperatorsForwarded() {
        let nan = LazyFuture { Double.nan }
        let otherNaN = LazyFuture { Double.nan }
        // Derived from `<`, `nan <= nan` would be !(nan < nan) == true.
        #expect(!(nan <= otherNaN))
        #expect(!(nan >= otherNaN))
        #expect(!(nan > otherNaN))
        #expect(!(nan <= 1.0))
        #expect(!(1.0 >= nan))
    }

    @Test("comparison works where Comparable is asked for")
    func genericComparison() {
        func largest<T: Comparable>(_ a: T, _ b: T) -> T { max(a, b) }
        let a = LazyFuture { "apple" }
        let b = LazyFuture { "banana" }
        #expect(largest(a, b) === b)
        #expect([b, a].sorted(by: <).first === a)
    }
}
