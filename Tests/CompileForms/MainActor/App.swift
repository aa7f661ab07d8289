// A client compiled with default main-actor isolation (SE-0466): everything here is
// @MainActor unless it says `nonisolated`, as in an app target made by Xcode 26.
import Futures

struct Article: Sendable {
    var title: String
    var body: String
}

enum LoadError: Error {
    case offline
}

nonisolated func downloadArticle(_ id: Int) throws(LoadError) -> Article {
    Article(title: "Futures \(id)", body: "…")
}

nonisolated func wordCount(_ text: String) -> Int { text.split(separator: " ").count }

final class ArticleModel {
    var title = ""
    var words = 0
    var failure: LoadError?
    @Lazy var greeting = "hello"

    func load(_ id: Int) {
        let article = BackgroundFuture { () throws(LoadError) in try downloadArticle(id) }
        article.onSuccess(on: .main) { self.title = $0.title }
        article
            .map { wordCount($0.body) }
            .onSuccess(on: .main) { self.words = $0 }
            .onFailure(on: .main) { self.failure = $0 }
        article.onComplete(on: .main) { result in
            if case .failure(let error) = result { self.failure = error }
        }
    }

    func loadAsync(_ id: Int) async {
        let article = BackgroundFuture { () throws(LoadError) in try downloadArticle(id) }
        do {
            title = try await article.get().title
        } catch {
            failure = error
        }
    }

    func chain(_ id: Int) -> Future<Int, LoadError> {
        BackgroundFuture { () throws(LoadError) in try downloadArticle(id) }
            .map { wordCount($0.body) }
            .flatMap { count in LazyFuture { count * 2 } }
    }

    func widened() -> Future<(Int, String), any Error> {
        zip(LazyFuture { 3 }.eraseFailure(), BackgroundFuture { () throws in "x" })
    }
}
