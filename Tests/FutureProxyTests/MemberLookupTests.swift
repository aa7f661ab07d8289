import FutureProxy
import Testing

@Suite("Member reads and writes")
struct MemberLookupTests {
    @Test("a member read returns the value's member")
    func memberRead() {
        let person = LazyFuture { ada }
        #expect(person.name == "Ada")
        #expect(person.age == 36)
        #expect(person.address.city == "London")
    }

    @Test("a member read runs lazy work first, and a pending background read waits for it")
    func memberReadWaits() {
        let gate = Gate()
        let person = BackgroundFuture {
            gate.wait()
            return alan
        }
        let release = BackgroundFuture { gate.open() }
        #expect(person.name == "Alan")
        release.value
    }

    @Test("reads resolve exactly once", arguments: [1, 2, 8, 64])
    func readsResolveOnce(threads: Int) {
        for _ in 0..<20 {
            let runs = Counter()
            let person = LazyFuture {
                runs.increment()
                return ada
            }
            let wrong = Counter()
            onThreads(threads) { _ in
                for _ in 0..<50 where person.name != "Ada" || person.address.city != "London" {
                    wrong.increment()
                }
            }
            #expect(runs.value == 1)
            #expect(wrong.value == 0)
        }
    }

    @Test("a failing future's member read throws its typed error")
    func failingMemberRead() {
        let person = LazyFuture { () throws(LoadError) -> Person in throw .corrupt("row 3") }
        do throws(LoadError) {
            _ = try person.name
            Issue.record("the read did not throw")
        } catch {
            #expect(error == .corrupt("row 3"))
        }
        // The error reaches every accessor, not only the first.
        #expect(throws: LoadError.corrupt("row 3")) { try person.address.city }
    }

    @Test("a future that can fail but succeeded reads with try")
    func throwingFutureSucceeds() throws {
        let person = LazyFuture { () throws(LoadError) -> Person in ada }
        #expect(try person.name == "Ada")
    }

    @Test("a write goes through to a class value")
    func writeThroughToAClass() {
        let account = LazyFuture { Account(owner: "Ada", balance: 10) }
        account.balance = 25
        account.owner += " Lovelace"
        #expect(account.balance == 25)
        #expect(account().owner == "Ada Lovelace")
        #expect(account.value.balance == 25)
    }

    @Test("a write runs lazy work first, once")
    func writeRunsWorkOnce() {
        let runs = Counter()
        let account = LazyFuture {
            runs.increment()
            return Account(owner: "Alan", balance: 0)
        }
        #expect(runs.value == 0)
        account.balance = 5
        account.balance += 1
        #expect(runs.value == 1)
        #expect(account.balance == 6)
    }

    @Test("optional chaining gives nil for a nil subject")
    func optionalChainingNil() {
        let nickname = LazyFuture { () -> String? in nil }
        let count: Int? = nickname.count
        #expect(count == nil)
        let person = LazyFuture { () -> Person? in nil }
        let city: String? = person.address?.city
        #expect(city == nil)
    }

    @Test("optional chaining reads the member of a present subject")
    func optionalChainingSome() {
        let nickname = LazyFuture { () -> String? in "Countess" }
        let count: Int? = nickname.count
        #expect(count == 8)
        let person = LazyFuture { () -> Person? in ada }
        #expect(person.address?.city == "London")
    }

    @Test("an optional member of an optional subject is flattened, as in optional chaining")
    func optionalChainingFlattens() {
        let someone = LazyFuture { () -> Person? in ada }
        let nobody = LazyFuture { () -> Person? in nil }
        let unnamed = LazyFuture { () -> Person? in alan }
        let first: String? = someone.nickname  // String?, not String??
        #expect(first == "Countess")
        #expect(nobody.nickname == nil)
        #expect(unnamed.nickname == nil)
    }

    @Test("a failing optional future's member read throws its typed error")
    func failingOptionalRead() {
        let nickname = LazyFuture { () throws(LoadError) -> String? in throw .missing }
        #expect(throws: LoadError.missing) { try nickname.count }
    }

    @Test("the future's own members win over the value's")
    func ownMembersWin() {
        struct Reading: Sendable {
            var value: Double
            var isResolved: String
        }
        let reading = LazyFuture { Reading(value: 1.5, isResolved: "no") }
        #expect(reading.isResolved == false)  // the future's, and it does not resolve
        #expect(reading.value.value == 1.5)  // future.value, then the member
        #expect(reading().isResolved == "no")  // the value's, through ()
        #expect(reading.isResolved == true)
    }
}
