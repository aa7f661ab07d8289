import Foundation
import FutureProxy
import Testing

@Suite("Encodable")
struct EncodableTests {
    struct Report: Encodable {
        let title: String
        let total: Future<Int, Never>
        let tags: Future<[String], Never>
    }

    struct PlainReport: Encodable {
        let title: String
        let total: Int
        let tags: [String]
    }

    private func json(_ value: some Encodable, dates: JSONEncoder.DateEncodingStrategy = .deferredToDate) throws
        -> String
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = dates
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test("a future encodes exactly as its value")
    func encodesAsValue() throws {
        #expect(try json(LazyFuture { [1, 2, 3] }) == "[1,2,3]")
        #expect(try json(LazyFuture { ["b": 2, "a": 1] }) == #"{"a":1,"b":2}"#)
        #expect(try json(LazyFuture { "text" }) == #""text""#)
    }

    @Test("futures inside an encoded value encode as their values")
    func nestedFutures() throws {
        let report = Report(title: "Q3", total: BackgroundFuture { 1234 }, tags: LazyFuture { ["x"] })
        let plain = PlainReport(title: "Q3", total: 1234, tags: ["x"])
        #expect(try json(report) == json(plain))
        #expect(try json(report) == #"{"tags":["x"],"title":"Q3","total":1234}"#)
    }

    @Test("the encoder's strategies apply to the value")
    func strategiesApply() throws {
        let moment = Date(timeIntervalSince1970: 0)
        let future = LazyFuture { moment }
        #expect(try json(future, dates: .iso8601) == json(moment, dates: .iso8601))
        #expect(try json(future, dates: .iso8601) == #""1970-01-01T00:00:00Z""#)
    }
}
