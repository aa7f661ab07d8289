import FutureProxy
import Testing

// Generic user code over futures that cannot fail: every forwarding path without `try`.
// That these compile is the main check: on this toolchain a typed-throws accessor read without
// `try` where Failure == Never crashes the compiler unless a non-throwing twin exists.

func name<T>(of future: Future<T, Never>, _ member: KeyPath<T, String>) -> String { future[dynamicMember: member] }
func valueOf<T>(_ future: Future<T, Never>) -> T { future() }
func element<C: Collection>(_ future: Future<C, Never>, at index: C.Index) -> C.Element { future[index] }
func tail<C: Collection>(_ future: Future<C, Never>, from index: C.Index) -> C.SubSequence { future[index...] }
func lookUp<K, V>(_ future: Future<[K: V], Never>, _ key: K) -> V? { future[key] }
func wrappedCount<C: Collection>(_ future: Future<C?, Never>) -> Int? { future.count }
func set<T: AnyObject, M>(_ future: Future<T, Never>, _ member: ReferenceWritableKeyPath<T, M>, to value: M) {
    future[dynamicMember: member] = value
}
func iterate<S: Sequence>(_ future: Future<S, Never>) -> [S.Element] {
    var elements: [S.Element] = []
    for element in future { elements.append(element) }
    return elements
}
func largest<T: Comparable>(_ futures: [Future<T, Never>]) -> T? { futures.max()?.value }
func isAnswer<T: Equatable & ExpressibleByIntegerLiteral>(_ future: Future<T, Never>) -> Bool { future == 42 }
func through<P: Proxy>(_ proxy: P) -> Int where P.Failure == Never, P.Subject == [Int] { proxy.count + proxy[0] }

// The same paths where the future can fail: `try`, and the typed error.
func name<T, E>(of future: Future<T, E>, _ member: KeyPath<T, String>) throws(E) -> String {
    try future[dynamicMember: member]
}
func valueOf<T, E>(_ future: Future<T, E>) throws(E) -> T { try future() }
func element<C: Collection, E>(_ future: Future<C, E>, at index: C.Index) throws(E) -> C.Element { try future[index] }

@Suite("Generic code")
struct GenericCodeTests {
    @Test("every forwarding path works in generic code without try when the future cannot fail")
    func genericNeverFails() {
        #expect(name(of: LazyFuture { ada }, \.name) == "Ada")
        #expect(valueOf(LazyFuture { 5 }) == 5)
        #expect(element(LazyFuture { [4, 5] }, at: 1) == 5)
        #expect(tail(LazyFuture { [4, 5, 6] }, from: 1) == [5, 6])
        #expect(lookUp(LazyFuture { ["k": 1] }, "k") == 1)
        #expect(wrappedCount(LazyFuture { () -> [Int]? in [1, 2] }) == 2)
        #expect(wrappedCount(LazyFuture { () -> [Int]? in nil }) == nil)
        let account = LazyFuture { Account(owner: "A", balance: 0) }
        set(account, \.owner, to: "B")
        #expect(account.owner == "B")
        #expect(iterate(LazyFuture { [1, 2] }) == [1, 2])
        #expect(largest([LazyFuture { 3 }, LazyFuture { 9 }]) == 9)
        #expect(isAnswer(LazyFuture { 42 }))
        #expect(through(LazyFuture { [10, 20] }) == 12)
    }

    @Test("generic code over a future that can fail gets its typed error")
    func genericCanFail() throws {
        let good = LazyFuture { () throws(LoadError) -> Person in ada }
        let bad = LazyFuture { () throws(LoadError) -> Person in throw .missing }
        #expect(try name(of: good, \.name) == "Ada")
        #expect(try valueOf(good).age == 36)
        #expect(try element(LazyFuture { () throws(LoadError) -> [Int] in [1] }, at: 0) == 1)
        do throws(LoadError) {
            _ = try name(of: bad, \.name)
            Issue.record("the read did not throw")
        } catch {
            #expect(error == .missing)
        }
    }
}
