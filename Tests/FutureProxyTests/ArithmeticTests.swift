import FutureProxy
import Testing

@Suite("Arithmetic forces the value")
struct ArithmeticTests {
    @Test("arithmetic with a plain value gives a plain value, on either side")
    func mixedArithmetic() {
        let f = LazyFuture { 12 }
        let sum: Int = f + 1
        #expect(sum == 13)
        #expect(1 + f == 13)
        #expect(f - 2 == 10)
        #expect(20 - f == 8)
        #expect(f * 2 == 24)
        #expect(2 * f == 24)
        #expect(f / 5 == 2)
        #expect(30 / f == 2)
        #expect(f % 5 == 2)
        #expect(29 % f == 5)
        #expect(-f == -12)
    }

    @Test("arithmetic between two futures waits for both")
    func futureArithmetic() {
        let a = LazyFuture { 7 }
        let b = BackgroundFuture { 3 }
        #expect(a + b == 10)
        #expect(a - b == 4)
        #expect(a * b == 21)
        #expect(a / b == 2)
        #expect(a % b == 1)
    }

    @Test("floating-point division uses the value's")
    func floatingPoint() {
        let half = LazyFuture { 0.5 }
        #expect(half / 2 == 0.25)
        #expect(1 / half == 2)
        #expect(half / LazyFuture { 0.25 } == 2)
        #expect(-half == -0.5)
    }

    @Test("compound assignment onto a plain variable")
    func compoundAssignment() {
        let f = LazyFuture { 4 }
        var x = 10
        x += f
        #expect(x == 14)
        x -= f
        #expect(x == 10)
        x *= f
        #expect(x == 40)
        x /= f
        #expect(x == 10)
        x %= f
        #expect(x == 2)
        var y = 1.0
        y /= LazyFuture { 4.0 }
        #expect(y == 0.25)
    }

    @Test("arithmetic runs lazy work once, when first used")
    func arithmeticRunsOnce() {
        let runs = Counter()
        let f = LazyFuture {
            runs.increment()
            return 2
        }
        #expect(runs.value == 0)
        let total = (0..<10).reduce(0) { partial, _ in partial + f }
        #expect(total == 20)
        #expect(runs.value == 1)
    }
}
