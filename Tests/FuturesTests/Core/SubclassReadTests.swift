import Futures
import Testing

// Reads through variables typed with a subclass, in generic code: `value` and `result` live in a
// protocol extension (`_FutureReading`) so that such a read needs no conversion to `Future`.
// That these compile, with and without `try`, is half the check; the other half is that each
// read gives the work's outcome.

private func valueOf<T>(_ future: LazyFuture<T, Never>) -> T { future.value }
private func valueOf<T>(_ future: BackgroundFuture<T, Never>) -> T { future.value }
private func valueOf<T, E>(_ future: LazyFuture<T, E>) throws(E) -> T { try future.value }
private func valueOf<T, E>(_ future: BackgroundFuture<T, E>) throws(E) -> T { try future.value }
private func resultOf<T, E>(_ future: LazyFuture<T, E>) -> Result<T, E> { future.result }
private func resultOf<T>(_ future: BackgroundFuture<T, Never>) -> Result<T, Never> { future.result }

private enum ReadError: Error, Equatable { case missing }

@Suite("Reads through a subclass")
struct SubclassReadTests {
    @Test("value and result read through LazyFuture and BackgroundFuture variables, in generic code")
    func genericReads() throws {
        #expect(valueOf(LazyFuture { 1 }) == 1)
        #expect(valueOf(BackgroundFuture { 2 }) == 2)
        #expect(try valueOf(LazyFuture { () throws(ReadError) -> Int in 3 }) == 3)
        #expect(try valueOf(BackgroundFuture<Int, any Error> { 4 }) == 4)
        #expect(resultOf(LazyFuture { () throws(ReadError) -> Int in throw .missing }) == .failure(.missing))
        #expect(resultOf(BackgroundFuture { 5 }) == .success(5))
    }

    @Test("a typed error thrown through a subclass variable keeps its type")
    func typedError() {
        let page = LazyFuture { () throws(ReadError) -> String in throw .missing }
        do throws(ReadError) {
            _ = try page.value
            Issue.record("the read did not throw")
        } catch {
            #expect(error == .missing)
        }
    }

    @Test("repeated reads through a subclass variable run the work once and give the same value")
    func repeatedReads() {
        let runs = Counter()
        let table = LazyFuture {
            _ = runs.increment()
            return [1, 2, 3]
        }
        var total = 0
        for _ in 0..<1_000 { total += table.value.count }
        #expect(total == 3_000)
        #expect(runs.value == 1)
    }
}
