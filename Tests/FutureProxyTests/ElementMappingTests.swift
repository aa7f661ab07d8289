import FutureProxy
import Testing

@Suite("map and flatMap on a future of a sequence")
struct ElementMappingTests {
    @Test("future().map maps the elements")
    func mapThroughCall() {
        let numbers = LazyFuture { [1, 2, 3] }
        #expect(numbers().map { $0 * 2 } == [2, 4, 6])
        #expect(numbers().flatMap { [$0, $0] } == [1, 1, 2, 2, 3, 3])
    }

    // The overloads below exist to be picked, with a deprecation warning, when `future.map`'s
    // closure only fits an element. Calling them from a deprecated context keeps this file
    // free of warnings while checking that they still do what was asked.
    @available(*, deprecated, message: "calls the deprecated element-mapping overloads on purpose")
    static func mapElements(_ numbers: Future<[Int], Never>) -> [Int] { numbers.map { $0 * 2 } }

    @available(*, deprecated, message: "calls the deprecated element-mapping overloads on purpose")
    static func mapElements(_ numbers: Future<Countdown, Never>) -> [Int] { numbers.map { $0 * 2 } }

    @available(*, deprecated, message: "calls the deprecated element-mapping overloads on purpose")
    static func flatMapElements(_ numbers: Future<[Int], Never>) -> [Int] { numbers.flatMap { [$0, -$0] } }

    @available(*, deprecated, message: "calls the deprecated element-mapping overloads on purpose")
    @Test("the deprecated element overloads still map the elements")
    func deprecatedOverloadsMap() {
        #expect(Self.mapElements(LazyFuture { [1, 2, 3] }) == [2, 4, 6])
        #expect(Self.mapElements(LazyFuture { Countdown(from: 2) }) == [4, 2])
        #expect(Self.flatMapElements(LazyFuture { [1, 2] }) == [1, -1, 2, -2])
    }
}
