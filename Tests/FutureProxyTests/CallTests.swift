import FutureProxy
import Testing

@Suite("The value through ()")
struct CallTests {
    @Test("future() is the value, for method calls")
    func callGivesTheValue() {
        let name = LazyFuture { "ada lovelace" }
        #expect(name().uppercased() == "ADA LOVELACE")
        #expect(name().split(separator: " ").count == 2)
        let numbers = LazyFuture { [3, 1, 2] }
        #expect(numbers().sorted() == [1, 2, 3])
    }

    @Test("future() runs lazy work once")
    func callRunsOnce() {
        let runs = Counter()
        let name = LazyFuture {
            runs.increment()
            return "x"
        }
        #expect(runs.value == 0)
        _ = name()
        _ = name()
        #expect(runs.value == 1)
    }

    @Test("future() of a failing future throws its typed error")
    func callThrows() {
        let name = LazyFuture { () throws(LoadError) -> String in throw .missing }
        do throws(LoadError) {
            _ = try name().uppercased()
            Issue.record("the call did not throw")
        } catch {
            #expect(error == .missing)
        }
    }

    @Test("a write to a future that can fail goes through ()")
    func writeThroughCall() throws {
        let account = LazyFuture { () throws(LoadError) -> Account in Account(owner: "Ada", balance: 1) }
        try account().balance = 2
        #expect(try account.balance == 2)
    }
}
