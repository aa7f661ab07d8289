// The names docs/guide.md's code blocks use without declaring them. Each block is compiled as a
// program of its own (main.swift) with this file beside it, by scripts/check-compile-forms.
import Dispatch
import Foundation
import Futures

// The pitch.
struct Config: Sendable {
    var theme = "dark"
    init(contentsOf url: URL) throws {}
}
let configURL = URL(fileURLWithPath: "/etc/app.json")
struct SearchIndex: Sendable {
    init(_ documents: [String]) {}
    func search(_ query: String) -> [String] { [] }
}
let documents = ["a", "b"]
func drawWindow() {}
let searchFieldWasUsed = true
let query = "fut"

// Quick start and properties.
struct Image: Sendable {
    static let placeholder = Image()
}
let urls = [URL(fileURLWithPath: "/tmp/a")]
func render(_ name: String) -> Image { Image() }
func show(_ image: Image) {}
func show(_ items: some Collection<String>) {}
func buildTable() -> [String: Int] { [:] }
func buildIndex(of words: [String]) -> [String: Int] { [:] }

// Standing in for the value.
func loadNames() -> [String] { ["Grace", "Ada"] }
func greet(_ name: String) {}

// Composing.
struct Page: Sendable {
    var title: String
}
struct User: Sendable {
    var avatarURL: URL
}
struct Raw: Sendable {}
struct Post: Sendable {}
struct Settings: Sendable {}
struct Report: Sendable {
    var pageCount: Int
}
struct Mirror: Sendable {}
struct Hit: Sendable {}
struct Shard: Sendable {
    func search(_ query: String) -> [Hit] { [] }
}
struct Size: Sendable {}
struct Row: Sendable {}
struct Note: Sendable {}
enum LoadError: Error {
    case unreadable(any Error)
}
let page = BackgroundFuture { () throws -> Page in Page(title: "Futures") }
let user = BackgroundFuture { () throws -> User in User(avatarURL: URL(fileURLWithPath: "/a.png")) }
let raw = BackgroundFuture { () throws -> Raw in Raw() }
let posts = BackgroundFuture { () throws -> [Post] in [] }
let settings = BackgroundFuture { () throws -> Settings in Settings() }
let thumbnail = BackgroundFuture { () throws -> Image in Image() }
let mirrors = [Mirror()]
let shards = [Shard()]
let id = 7
let url = urls[0]
let dir = "/tmp"
let note = Note()
func download(_ url: URL) throws -> Image { Image() }
func fetch(_ url: URL) throws -> Data { Data() }
func fetch(from mirror: Mirror) throws -> Data { Data() }
func buildReport() -> Report { Report(pageCount: 3) }
@MainActor final class ImageView {
    var image: Image?
}
@MainActor let imageView = ImageView()
struct Log: Sendable {
    func error(_ message: String) {}
}
let log = Log()
let logQueue = DispatchQueue(label: "log")
struct API: Sendable {
    func profile(for id: Int) async throws -> String { "" }
}
let api = API()
final class LegacyClient: Sendable {
    func fetch(_ url: URL, completion: @escaping @Sendable (Result<Data, any Error>) -> Void) {}
}
let legacy = LegacyClient()
final class FileSystem: Sendable {
    func list(_ dir: String, completion: @escaping @Sendable ([String]?, (any Error)?) -> Void) {}
}
let fs = FileSystem()
final class ImageService: Sendable {
    func resize(_ image: Image, _ size: Size, completion: @escaping @Sendable (Result<Image, any Error>) -> Void) {}
}
let imageService = ImageService()
final class Database {
    init(path: String) {}
    func query(_ sql: String) -> [Row] { [] }
    func insert(_ note: Note) {}
}

// Typed errors in chains.
struct Header: Sendable {
    var size: Int
}
struct Body: Sendable {}
enum ParseError: Error {
    case unreadable(LoadError)
}
let file = "notes.txt"
let cache = [1, 2, 3]
func readHeader(of file: String) throws(LoadError) -> Header { Header(size: 1) }
func decompress(_ header: Header) -> Body { Body() }
func validate(_ header: Header) throws(LoadError) -> Header { header }
func parseBody(of header: Header) throws(ParseError) -> Body { Body() }
func decodeJSON(_ header: Header) throws -> [String: String] { [:] }

// The toolbox.
enum TransferError: Error {
    case offline
    case timedOut
}
enum APIError: Error {
    case unavailable
    var isTransient: Bool { true }
}
struct Accounts: Sendable {
    func account(for id: Int) throws(APIError) -> String { "" }
}
let accounts = Accounts()
let text = "42"
func decodeCount(_ text: String) throws(TransferError) -> Int { 42 }
let transfer = BackgroundFuture { () throws(TransferError) -> Data in Data() }
let transfers = [BackgroundFuture { () throws -> Data in Data() }]
let lookupHits = BackgroundFuture { () throws -> [Hit] in [] }
let uploads = [BackgroundFuture { () throws -> Int in 1 }]
let primary = BackgroundFuture { () throws -> Data in Data() }
let backup = Mirror()
let saved = BackgroundFuture { "saved" }
let byteCounts = [Future(value: 1), Future(value: 2)]
let pageLoads = [Future(value: Page(title: "Futures"))]
let heading = Future(value: "# Report\n")
let sections = [Future(value: "intro")]
func renderSection(_ section: String) -> String { section }
func show(_ result: Result<Data, any Error>) {}
let loading = BackgroundFuture { () throws -> Int in 1 }
let lookup = LazyFuture { 42 }

// Futures in apps.
struct Profile: Sendable {}
func fetchProfile() throws -> Profile { Profile() }
let document = "a page"
