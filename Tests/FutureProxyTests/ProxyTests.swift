import FutureProxy
import Testing

/// A proxy that is not a future: it makes its subject on each request.
struct Shouting: Proxy {
    let text: String
    let requests = Counter()

    func resolveSubject() -> String {
        requests.increment()
        return text.uppercased()
    }
}

/// A proxy whose subject may fail to load, with a typed error.
struct Lookup: Proxy {
    let table: Result<[String: Int], LoadError>

    func resolveSubject() throws(LoadError) -> [String: Int] { try table.get() }
}

/// A proxy of an optional subject.
struct MaybeName: Proxy {
    let name: String?

    func resolveSubject() -> String? { name }
}

@Suite("Proxy, for types other than Future")
struct ProxyTests {
    @Test("a custom proxy forwards member reads, subscripts and ()")
    func customProxyForwards() {
        let loud = Shouting(text: "hi there")
        #expect(loud.count == 8)
        #expect(loud[loud().startIndex] == "H")
        #expect(loud[loud().index(after: loud().startIndex)...] == "I THERE")
        #expect(loud().split(separator: " ") == ["HI", "THERE"])
        #expect(loud.requests.value == 7)  // each forwarded use and each () asks the proxy once
    }

    @Test("a custom proxy that can fail throws its typed error from every forwarded use")
    func customProxyThrows() throws {
        let good = Lookup(table: .success(["a": 1]))
        #expect(try good["a"] == 1)
        #expect(try good.count == 1)
        let bad = Lookup(table: .failure(.missing))
        do throws(LoadError) {
            _ = try bad["a"]
            Issue.record("the subscript did not throw")
        } catch {
            #expect(error == .missing)
        }
        #expect(throws: LoadError.missing) { try bad.isEmpty }
        #expect(throws: LoadError.missing) { try bad() }
    }

    @Test("a custom proxy of an optional subject forwards optional-chained")
    func customOptionalProxy() {
        #expect(MaybeName(name: "Ada").count == 3)
        #expect(MaybeName(name: nil).count == nil)
    }

    @Test("generic code over some Proxy reads without try when it cannot fail")
    func genericOverProxy() throws {
        func length(_ proxy: some Proxy<String, Never>) -> Int { proxy.count }
        func length(_ proxy: some Proxy<String, LoadError>) throws(LoadError) -> Int { try proxy.count }
        #expect(length(Shouting(text: "abc")) == 3)
        #expect(length(LazyFuture { "abcd" }) == 4)
        #expect(try length(LazyFuture { () throws(LoadError) -> String in "ab" }) == 2)
        #expect(throws: LoadError.missing) {
            try length(LazyFuture { () throws(LoadError) -> String in throw .missing })
        }
    }
}
