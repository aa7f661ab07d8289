import Futures

/// `zip` of two and of three futures, and `fold` (which zips).
enum ZipChecks {
    static func run() {
        Checks.check("zip of two: a pending promise and a background future") {
            let promise = Promise<Int, Never>()
            let both = zip(promise.future, BackgroundFuture { 3 })
            promise.succeed(1)
            let (first, second) = both.value
            return first == 1 && second == 3
        }
        Checks.check("zip of two, read while a source is pending") {
            let promise = Promise<Int, Never>()
            let both = zip(promise.future, BackgroundFuture { 3 })
            succeedLater(promise, with: 1)
            let (first, second) = both.value
            return first == 1 && second == 3
        }
        Checks.check("zip of three") {
            let (a, b, c) = zip(Future<Int, Never>(value: 1), BackgroundFuture { 2 }, LazyFuture { 3 }).value
            return a == 1 && b == 2 && c == 3
        }
        Checks.check("zip fails with a failure") {
            zip(Future<Int, Boom>(value: 1), Future<Int, Boom>(failure: .boom)).result.isFailure
        }
        Checks.check("fold") {
            let futures = (1...4).map { index in BackgroundFuture { index } }
            return Future<Int, Never>(value: 0).fold(futures) { sum, next in Future(value: sum + next) }.value == 10
        }
    }
}
