/// Futures built from futures: map, zip, all, first, recover, cancel.
struct Composition: Chapter {
    let title = "Composition"
    let summary =
        "map, zip, all and first build futures from futures; a lazy chain runs nothing until read; "
        + "errors flow down a chain, and recover ends them."

    private struct User: Sendable {
        let id: Int
        let name: String
    }

    private enum LoadError: Error { case notFound }

    func run(_ log: ChapterLog) {
        let user = BackgroundFuture { User(id: 7, name: "Ada") }
        let posts = BackgroundFuture { ["On the Analytical Engine", "Notes"] }
        let greeting = user.map { "Hello, \($0.name)" }
        let (who, what, hello) = zip(user, posts, greeting).value
        log.check(who.id == 7 && what.count == 2 && hello == "Hello, Ada", "zip: \(hello), \(what.count) posts")
        let squares = Future.all((1...5).map { n in BackgroundFuture { n * n } })
        log.check(squares.value == [1, 4, 9, 16, 25], "all keeps the order: \(squares.value)")
        let slow = Promise<String, Never>()
        let winner = Future.first(of: [slow.future, BackgroundFuture { "fast mirror" }])
        log.check(winner.value == "fast mirror", "first: the fast mirror wins the race")
        slow.succeed("slow mirror")
        let runs = Counter()
        let chain = LazyFuture { () -> Int in
            runs.increment()
            return 21
        }.map { $0 * 2 }.map { "the answer is \($0)" }
        log.check(runs.value == 0, "a lazy chain of three built; nothing has run")
        log.check(chain.value == "the answer is 42" && runs.value == 1, "reading its end runs the source once")
        let avatar = BackgroundFuture { () throws(LoadError) -> String in throw .notFound }
        let size = avatar.map { $0.count }
        let failedToo = if case .failure(.notFound) = size.result { true } else { false }
        log.check(failedToo, "the derived future failed with the source's typed error; its closure never ran")
        log.check(avatar.recover { _ in "placeholder.png" }.value == "placeholder.png", "recover gives a fallback")
    }
}
