// The forms of issues 12 and 21, as their texts write them.
import Futures

func issueTypedErrorChains(source: Future<Int, LoadError>) {
    let a = BackgroundFuture { () throws(LoadError) -> Int in 5 }.map { $0 + 1 }
    let b = BackgroundFuture { () throws(LoadError) -> Int in 5 }.map { v -> Int in v + 1 }
    let c = LazyFuture { () throws(LoadError) -> Int in 5 }.map { $0 * 2 }.map { $0 + 1 }
    let d = source.flatMap { v in LazyFuture { v + 1 } }
    // `try` in a closure that does not declare its error type throws `any Error` in Swift 6.3
    // (swiftlang/swift#80787): the source closure literal is widened to match.
    let e = BackgroundFuture { () throws(LoadError) -> Int in 5 }.map { try parse($0) }
    // Declaring the closure's error type keeps LoadError.
    let e2 = BackgroundFuture { () throws(LoadError) -> Int in 5 }.map { v throws(LoadError) in try parse(v) }
    expectType(a, Future<Int, LoadError>.self)
    expectType(b, Future<Int, LoadError>.self)
    expectType(c, Future<Int, LoadError>.self)
    expectType(d, Future<Int, LoadError>.self)
    expectType(e, Future<Int, any Error>.self)
    expectType(e2, Future<Int, LoadError>.self)
}

func issueZipWidening() {
    let widened = zip(LazyFuture { 3 }.eraseFailure(), BackgroundFuture { () throws -> String in "" })
    expectType(widened, Future<(Int, String), any Error>.self)
    let three = LazyFuture { 3 }
    let text = BackgroundFuture { () throws -> String in "" }
    expectType(zip(three.eraseFailure(), text), Future<(Int, String), any Error>.self)
    expectType(zip(three.setFailureType(to: (any Error).self), text), Future<(Int, String), any Error>.self)
    let typed = BackgroundFuture { () throws(LoadError) -> String in "" }
    expectType(zip(three.setFailureType(to: LoadError.self), typed), Future<(Int, String), LoadError>.self)
    // The one-expression form of the issue compiles too: the lazy literal is widened.
    expectType(
        zip(LazyFuture { 3 }, BackgroundFuture { () throws -> String in "" }), Future<(Int, String), any Error>.self)
}

@MainActor final class TitleModel {
    var title = ""
}

@MainActor func issueMainActorCallback(future: Future<String, Never>, model: TitleModel) {
    future.onSuccess(on: .main) { model.title = $0 }
}

// The form of issue 21 (item 6), as its text writes it: a source with a concrete error type, and a
// closure that returns a future that cannot fail; the chain keeps the concrete type.
struct Boom: Error {}

func issueConcreteSourceFlatMapToAFutureThatCannotFail() {
    expectType(BackgroundFuture { () throws(Boom) in 5 }.flatMap { v in LazyFuture { v + 1 } }, Future<Int, Boom>.self)
    expectType(
        BackgroundFuture { () throws(Boom) in
            if Bool.random() { throw Boom() }
            return 5
        }.flatMap { v in LazyFuture { v + 1 } },
        Future<Int, Boom>.self)
    expectType(LazyFuture { () throws(Boom) in 5 }.flatMap { v in BackgroundFuture { v * 2 } }, Future<Int, Boom>.self)
}

// The form of issue 58 (item 7), as its text writes it: the same chain read at once, in a function
// that throws the source's type. A member after the `flatMap` (`.value`, `.map`) once made it
// ambiguous: the literal source can also be read as failing with `any Error`.
func issueConcreteSourceFlatMapRead() throws(Boom) -> Int {
    try BackgroundFuture { () throws(Boom) -> Int in 5 }.flatMap { v in LazyFuture { v + 1 } }.value
}

func issueConcreteSourceFlatMapThenMore() throws(Boom) {
    expectType(
        BackgroundFuture { () throws(Boom) -> Int in 5 }.flatMap { v in LazyFuture { v + 1 } }.map { $0 + 1 },
        Future<Int, Boom>.self)
    expectType(
        BackgroundFuture { () throws(Boom) -> Int in 5 }.map { $0 * 2 }.flatMap { v in LazyFuture { v } }.map { $0 },
        Future<Int, Boom>.self)
    _ = try LazyFuture { () throws(Boom) -> Int in 5 }.flatMap { v in BackgroundFuture { v * 2 } }.value
    _ = try BackgroundFuture { () throws(Boom) -> Int in 5 }.flatMap { v in LazyFuture { v + 1 } }.result.get()
}
