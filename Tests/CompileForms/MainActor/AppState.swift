// Futures in apps, from a client with default main-actor isolation (SE-0466): observed state,
// the progress of a fan-out, and a discardable lazy value, as a view model holds them.
import Futures
import FuturesApps
import Observation

nonisolated func thumbnailBytes(_ id: Int) -> [UInt8] { Array(repeating: UInt8(id % 256), count: 16) }

@Observable
final class GalleryModel {
    let article = BackgroundFuture { () throws(LoadError) in try downloadArticle(1) }.observed()
    let thumbnails: [Future<[UInt8], Never>]
    let progress: FutureProgress
    let cover = DiscardableLazyFuture { thumbnailBytes(0) }

    init() {
        thumbnails = (1...8).map { id in BackgroundFuture { thumbnailBytes(id) } }
        progress = FutureProgress(of: thumbnails)
    }

    var status: String {
        if let article = article.value { return "\(article.title): \(progress.completed)/\(progress.total)" }
        if article.error != nil { return "offline" }
        return article.isPending ? "loading" : ""
    }

    func freeMemory() -> Bool { cover.discard() }

    func coverSize() async -> Int { await cover.get().count }
}
