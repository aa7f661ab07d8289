import Foundation
import Futures

/// `map`, `flatMap`, `mapError`, `recover`, `flatMapError`, `all`, `first(of:)`,
/// `firstSuccess(of:)`, `allSettled` and `reduce` (the zips and `fold` are in `ZipChecks`).
enum CombinatorChecks {
    static func run() {
        Checks.check("map, resolved source") { Future<Int, Never>(value: 2).map { $0 * 3 }.value == 6 }
        Checks.check("map, pending source") {
            let promise = Promise<Int, Never>()
            let mapped = promise.future.map { $0 + 1 }.map { String($0) }
            promise.succeed(41)
            return mapped.value == "42"
        }
        Checks.check("map, read while its source is pending") {
            let promise = Promise<Int, Never>()
            let mapped = promise.future.map { $0 * 2 }
            succeedLater(promise, with: 21)
            return mapped.value == 42
        }
        Checks.check("map that throws") {
            BackgroundFuture { 1 }.map { (_: Int) throws(Boom) -> Int in throw .boom }.result == .failure(.boom)
        }
        Checks.check("flatMap to a lazy future") {
            BackgroundFuture { 2 }.flatMap { value in LazyFuture { value + 1 } }.value == 3
        }
        Checks.check("flatMap, pending source, failing inner") {
            let promise = Promise<Int, Boom>()
            let chained = promise.future.flatMap { _ in Future<Int, Boom>(failure: .other) }
            promise.succeed(1)
            return chained.result == .failure(.other)
        }
        Checks.check("flatMap, read while its source is pending") {
            let promise = Promise<Int, Never>()
            let chained = promise.future.flatMap { value in BackgroundFuture { value + 1 } }
            succeedLater(promise, with: 1)
            return chained.value == 2
        }
        Checks.check("mapError") {
            Future<Int, Boom>(failure: .boom).mapError { Wrapped(inner: $0) }.result == .failure(Wrapped(inner: .boom))
        }
        Checks.check("recover") {
            let recovered: Future<Int, Never> = BackgroundFuture { () throws(Boom) -> Int in throw .boom }
                .recover { _ in 9 }
            return recovered.value == 9
        }
        Checks.check("flatMapError") {
            let fallback: Future<Int, Never> = Future<Int, Boom>(failure: .boom)
                .flatMapError { _ in BackgroundFuture { 10 } }
            return fallback.value == 10
        }
        Checks.check("Future.all, resolved and pending") {
            let promise = Promise<Int, Never>()
            let all = Future.all([Future(value: 1), promise.future, BackgroundFuture { 3 }])
            promise.succeed(2)
            return all.value == [1, 2, 3]
        }
        Checks.check("Future.all fails with the first failure") {
            Future.all([Future<Int, Boom>(value: 1), Future(failure: .boom)]).result == .failure(.boom)
        }
        Checks.check("Future.all(maxConcurrent:)") {
            let running = Counter()
            let most = Counter()
            let all = Future<Int, Never>.all(1...12, maxConcurrent: 3) { item in
                BackgroundFuture { () -> Int in
                    most.raise(to: running.bump())
                    pause(milliseconds: 5)
                    running.drop()
                    return item * 2
                }
            }
            return all.value == (1...12).map { $0 * 2 } && most.value >= 1 && most.value <= 3
        }
        Checks.check("Future.first(of:)") {
            let slow = BackgroundFuture { () -> Int in
                pause(milliseconds: 300)
                return 1
            }
            let first = Future.first(of: [slow, Future(value: 2)])
            return first.value == 2
        }
        Checks.check("Future.firstSuccess(of:)") {
            let futures: [Future<Int, Boom>] = [
                Future(failure: .boom),
                BackgroundFuture { () throws(Boom) -> Int in
                    pause(milliseconds: 20)
                    return 5
                },
            ]
            return Future.firstSuccess(of: futures).result == .success(5)
        }
        Checks.check("Future.firstSuccess(of:) of failures only") {
            let futures: [Future<Int, Boom>] = [Future(failure: .boom), Future(failure: .other)]
            return Future.firstSuccess(of: futures).result.isFailure
        }
        Checks.check("Future.allSettled") {
            let settled = Future.allSettled([Future<Int, Boom>(value: 1), Future(failure: .boom)]).value
            return settled.count == 2 && settled[0] == .success(1) && settled[1] == .failure(.boom)
        }
        Checks.check("Future.reduce") {
            let futures = (1...4).map { index in BackgroundFuture { index } }
            return Future<Int, Never>.reduce(0, futures) { $0 + $1 }.value == 10
        }
        Checks.check("Future.reduce(into:)") {
            let futures: [Future<Int, Never>] = (1...3).map { Future(value: $0) }
            return Future<[Int], Never>.reduce(into: [], futures) { $0.append($1) }.value == [1, 2, 3]
        }
    }
}

extension Result {
    var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
