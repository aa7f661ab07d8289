// The code of the article "Composing futures".

// snippet.imports
import Dispatch
import Futures

// snippet.end

// snippet.hide
struct User: Sendable {
    let id: Int
    let name: String
    let avatarURL: String
}
enum LoadError: Error {
    case unreachable(String)
    case unreadable(any Error)
}
func fetchUser(_ id: Int) throws -> User { User(id: id, name: "Ada", avatarURL: "ada.png") }
func fetchPosts(of id: Int) throws -> [String] { ["Notes"] }
func download(_ url: String) throws -> [UInt8] {
    guard url.hasSuffix(".png") else { throw LoadError.unreachable(url) }
    return Array(url.utf8)
}
let placeholder: [UInt8] = []
final class LegacyClient: Sendable {
    func fetch(_ url: String, completion: @escaping @Sendable (Result<[UInt8], any Error>) -> Void) {
        DispatchQueue.global().async { completion(Result { try download(url) }) }
    }
    func list(_ folder: String, completion: @escaping @Sendable ([String]?, (any Error)?) -> Void) {
        completion(["a.txt", "b.txt"], nil)
    }
}
let legacy = LegacyClient()
func profile(for id: Int) async throws -> String { "profile \(id)" }
enum ParseError: Error {
    case unreadable(LoadError)
    case empty
}
func readHeader(_ name: String) throws(LoadError) -> String {
    guard name.hasSuffix(".png") else { throw .unreachable(name) }
    return "PNG header"
}
func validate(_ header: String) throws(LoadError) -> String { header }
func parseHeader(_ header: String) throws(ParseError) -> [String] {
    guard !header.isEmpty else { throw .empty }
    return header.split(separator: " ").map(String.init)
}
func decode(_ header: String) throws -> String { header.lowercased() }
// snippet.show

// snippet.map
let user = BackgroundFuture { try fetchUser(7) }  // Future<User, any Error>
let name = user.map { $0.name }  // Future<String, any Error>
let avatar = user.flatMap { user in BackgroundFuture { try download(user.avatarURL) } }
let typed = avatar.mapError { LoadError.unreadable($0) }  // Future<[UInt8], LoadError>
let shown = avatar.recover { _ in placeholder }  // Future<[UInt8], Never>: cannot fail
// snippet.end
print(try name.value, shown.value.count, (try? typed.value)?.count ?? 0)

// snippet.typed
let header = BackgroundFuture { () throws(LoadError) -> String in try readHeader("notes.png") }
let size = header.map { $0.count }  // Future<Int, LoadError>: the closure cannot fail
let loud = header.flatMap { text in LazyFuture { text.uppercased() } }  // nor can the inner future
let checked = header.map { text throws(LoadError) in try validate(text) }  // say what it throws
let parsed =
    header
    .mapError { ParseError.unreadable($0) }  // convert before mixing two error types
    .map { text throws(ParseError) in try parseHeader(text) }  // Future<[String], ParseError>
let decoded = header.eraseFailure().map { try decode($0) }  // or widen to any Error
let three = LazyFuture { 3 }.setFailureType(to: LoadError.self)  // Future<Int, LoadError>
let both = zip(three, size)  // one error type: Future<(Int, Int), LoadError>
// snippet.end
print(try loud.value, try checked.value, try parsed.value, try decoded.value, try both.value)

// snippet.zip
let posts = BackgroundFuture { try fetchPosts(of: 7) }
let screen = zip(user, posts, name)  // Future<(User, [String], String), any Error>
let (who, what, called) = try screen.value
let pages = Future.all(["a.png", "b.png"].map { url in BackgroundFuture { try download(url) } })
let fastest = Future.first(of: ["m1.png", "m2.png"].map { url in BackgroundFuture { try download(url) } })
// snippet.end
print(who.id, what, called, try pages.value.count, try fastest.value.count)

// snippet.lazy
let report = LazyFuture { "a report of many pages" }
let words = report.map { $0.split(separator: " ").count }  // lazy: nothing has run
let length = report.deferred.count  // a future of a member, also lazy
print(words.isResolved, length.isResolved)  // false false
print(words.value)  // runs the report, once, then counts its words
// snippet.end

// snippet.callbacks
let log = DispatchQueue(label: "log")
let logged = DispatchSemaphore(value: 0)
avatar
    .onSuccess(on: .queue(log)) { bytes in print("downloaded \(bytes.count) bytes") }
    .onFailure { error in print("failed: \(error)") }  // .immediate: on the resolving thread
    .onComplete(on: .queue(log)) { _ in logged.signal() }
let serial = ExecutionContext { work in log.async(execute: work) }  // a context of your own
name.onSuccess(on: serial) { print("hello, \($0)") }
// snippet.end
logged.wait()
log.sync {}

// snippet.main
@MainActor final class AvatarModel {
    var byteCount = 0
}
let model = AvatarModel()
avatar.onSuccess(on: .main) { model.byteCount = $0.count }  // a @MainActor closure, run on the main actor
// snippet.end

// snippet.cancel
let search = BackgroundFuture { () throws -> Int in
    var checked = 0
    while checked < 1_000_000_000 {
        try Future.checkCancellation()  // or: if Future.isCurrentWorkCancelled { ... }
        checked += 1
    }
    return checked
}
let summary = search.map { "\($0) checked" }
search.cancel()  // true if this call cancelled it
print(search.isCancelled, summary.isCancelled)  // true true: derived futures are cancelled too
if case .failure(let error) = summary.result { print(error is CancellationError) }  // true
// snippet.end

// snippet.bridge
let fromAsync = Future.task { try await profile(for: 7) }  // runs as a Task
let data = Future<[UInt8], any Error>.wrap { complete in
    legacy.fetch("logo.png") { complete($0) }  // a Result handler
}
let listing = Future<[String], any Error>.wrap { complete in
    legacy.list("docs") { complete($0, $1) }  // a (value?, error?) handler
}
let fetch = Future.wrap(legacy.fetch)  // (String) -> Future<[UInt8], any Error>
let logo = fetch("logo.png")
// snippet.end
print(try fromAsync.value, try data.value.count, try listing.value, try logo.value.count)

// snippet.agent
final class Notebook {
    var notes: [String] = []
}
let notebook = Agent(Notebook())  // the notebook now lives on the agent's serial queue
notebook.async { $0.notes.append("buy milk") }  // fire and forget
let count = notebook.async { $0.notes.count }  // a BackgroundFuture<Int, Never>, run in order
print(count.value)  // 1
// snippet.end
