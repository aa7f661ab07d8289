// The code of the article "Futures in apps".
// snippet.imports
import Foundation
import FuturesApps
import Observation

// snippet.end
// snippet.hide
struct Profile: Sendable {
    var name: String
}
func fetchProfile() throws -> Profile { Profile(name: "Ada") }
func download(_ url: URL) throws -> Data { Data(url.absoluteString.utf8) }
func render(_ text: String) -> [UInt8] { Array(text.utf8) }
let urls = (1...8).map { URL(string: "https://example.com/\($0)")! }
let document = "a page to render"
/// Serves the main queue until `condition` holds, as an app's run loop does.
@MainActor
func serveMainQueue(until condition: () -> Bool) {
    while !condition() { _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01)) }
}
// snippet.show

// snippet.observed
@MainActor @Observable final class ProfileModel {
    let profile = BackgroundFuture { try fetchProfile() }.observed()

    var title: String {
        if let profile = profile.value { return profile.name }
        return profile.error == nil ? "Loading…" : "Could not load"
    }
}
// snippet.end
let model = ProfileModel()
serveMainQueue { !model.profile.isPending }
print(model.title)  // Ada

// snippet.progress
let downloads = urls.map { url in BackgroundFuture { try download(url) } }
let progress = FutureProgress(of: downloads)  // the same futures the fan-out waits for
let pages = Future.all(downloads)
// SwiftUI: ProgressView(value: progress.fractionCompleted)
// snippet.end
serveMainQueue { progress.isFinished }
print(progress.completed, progress.total, progress.failed, try pages.value.count)  // 8 8 0 8

// snippet.bounded
let bounded = FutureProgress(total: urls.count)
let loaded = Future.all(urls, maxConcurrent: 2) { url in
    bounded.track(BackgroundFuture { try download(url) })
}
bounded.cancelOnProgressCancellation(loaded)  // foundationProgress.cancel() stops the fan-out
// snippet.end
print(try loaded.value.count)  // 8

// snippet.discardable
let page = DiscardableLazyFuture { render(document) }
print(page.value.count)  // renders
page.discard()  // frees the rendering
if page.beginContentAccess() {  // renders again, and pins it
    defer { page.endContentAccess() }
    print(page.value.count, page.discard())  // 16 false: pinned
}
// snippet.end

// snippet.storage
let cached = DiscardableLazyFuture(storingIn: FileManager.default.temporaryDirectory) {
    ["futures": 3, "apps": 1]  // a Codable value
}
_ = cached.value  // computed, and a copy written to disk
cached.discard()
_ = cached.value  // read back from disk, not computed
// snippet.end
// snippet.hide
// An exit skips deinitializers, so the copy on disk would outlive this program: remove it.
cached.invalidate()
