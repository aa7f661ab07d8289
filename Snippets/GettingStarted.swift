// The code of the article "Getting started": making futures and reading them.

// snippet.imports
import Dispatch
import Futures
// snippet.end

// snippet.hide
struct Config: Sendable {
    var theme = "dark"
}
struct SearchIndex: Sendable {
    let words: [String]
    func search(_ query: String) -> [String] { words.filter { $0.hasPrefix(query) } }
}
enum LoadError: Error {
    case unreadable(String)
}
func loadConfig() throws -> Config { Config() }
func buildIndex() -> SearchIndex { SearchIndex(words: ["future", "fusion", "lazy"]) }
func readHeader(of name: String) throws(LoadError) -> String {
    guard name.hasSuffix(".png") else { throw .unreadable(name) }
    return "PNG"
}
func drawWindow() {}
let searchFieldWasUsed = true
// snippet.show

// snippet.background
let config = BackgroundFuture { try loadConfig() }  // Future<Config, any Error>; loading starts now
drawWindow()  // runs while the config loads
let theme = try config.value.theme  // waits only if the load is still going
// snippet.end
print("theme: \(theme)")

// snippet.lazy
let index = LazyFuture { buildIndex() }  // Future<SearchIndex, Never>; nothing runs yet
if searchFieldWasUsed {
    print(index.value.search("fu"))  // builds the index now, once; no `try`
}
// snippet.end

// snippet.typed
let header = BackgroundFuture { () throws(LoadError) -> String in
    try readHeader(of: "notes.txt")
}  // Future<String, LoadError>
do {
    print(try header.value)
} catch {
    print("could not read the header: \(error)")  // error is a LoadError
}
switch header.result {  // the same outcome, as a Result
case .success(let text): print(text)
case .failure(.unreadable(let name)): print("unreadable: \(name)")
}
// snippet.end

// snippet.promise
let promise = Promise<Int, Never>()
DispatchQueue.global().async {
    promise.succeed(42)  // true: this call completed it
}
print(promise.future.value)  // 42, once the other thread has completed the promise
print(promise.succeed(0))  // false: the first completion won
// snippet.end

// snippet.peek
let report = LazyFuture { "report" }
print(report.isResolved)  // false: never blocks, never starts work
print(report.peek as Any)  // nil: the same, with the result once there is one
if let result = report.result(timeout: .milliseconds(50)) {  // waits at most 50 ms
    print(result)
}
// snippet.end

// snippet.async
func showTheme() async throws {
    let config = try await config.get()  // suspends; never blocks a thread
    print("theme from async code: \(config.theme)")
}
// snippet.end
// snippet.hide
let done = DispatchSemaphore(value: 0)
Task.detached {
    try await showTheme()
    done.signal()
}
done.wait()
