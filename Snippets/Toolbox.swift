// The code of the toolbox sections of the article "Composing futures".
import Dispatch
import Futures

// snippet.hide
enum LoadError: Error {
    case timedOut
    case unreachable(String)
}
let cache: [String: [UInt8]] = ["logo.png": [1, 2, 3]]
func download(_ url: String) throws(LoadError) -> [UInt8] {
    guard url.hasSuffix(".png") else { throw .unreachable(url) }
    return Array(url.utf8)
}
let slowServer = Promise<[UInt8], LoadError>()  // a server that never answers
// snippet.show

// snippet.resolved
func image(_ url: String) -> Future<[UInt8], LoadError> {
    if let cached = cache[url] { return Future(value: cached) }  // already resolved
    return BackgroundFuture { () throws(LoadError) in try download(url) }
}
let answer = Future(value: 42)  // Future<Int, Never>
let refused = Future<Int, LoadError>(failure: .unreachable("example.org"))
// snippet.end
print(try image("logo.png").value, answer.value, refused.peek as Any)

// snippet.timeout
let slow = slowServer.future.timeout(after: .milliseconds(20))  // Future<[UInt8], any Error>
do {
    _ = try slow.value
} catch let error as FutureTimeoutError {
    print(error)  // timed out after 0.02 seconds (the timeout made at ...)
}
let typed = slowServer.future.timeout(after: .milliseconds(20), failingWith: .timedOut)  // keeps LoadError
let search = BackgroundFuture { () throws -> Int in
    while true { try Future.checkCancellation() }
}
let bounded = search.timeout(after: .milliseconds(20), cancellingSource: true)
print((try? typed.value) == nil, (try? bounded.value) == nil, search.isCancelled)  // true true true
// snippet.end

// snippet.retry
let profile = Future.retry(attempts: 4, delay: .milliseconds(5), backoff: 2, jitter: 0.5) {
    BackgroundFuture { () throws(LoadError) in try download("profile.png") }
}
let lazyConfig = Future.retry(attempts: 3) { LazyFuture { () throws -> String in "config" } }  // lazy too
print(try profile.value.count, try lazyConfig.value)
// snippet.end

// snippet.races
let mirrors = ["a.example", "b.png", "c.png"]
let page = Future.firstSuccess(
    of: mirrors.map { url in BackgroundFuture { () throws(LoadError) in try download(url) } })
let uploads = Future.allSettled(mirrors.map { url in BackgroundFuture { () throws(LoadError) in try download(url) } })
for (url, result) in zip(mirrors, uploads.value) { print(url, result) }  // order kept; cannot fail
let primary = BackgroundFuture { () throws(LoadError) in try download("primary") }
let withFallback = primary.flatMapError { _ in LazyFuture { [UInt8]() } }  // Future<[UInt8], Never>
let toast = answer.delayed(by: .milliseconds(5))  // the value, 5 ms late
print(try page.value.count, withFallback.value.count, toast.value)
// snippet.end

// snippet.folding
let sizes = mirrors.dropFirst().map { url in BackgroundFuture { () throws(LoadError) in try download(url).count } }
let total = Future.reduce(0, sizes) { $0 + $1 }  // Future<Int, LoadError>
let index = Future.reduce(into: [Int](), sizes) { $0.append($1) }
let report = Future<String, LoadError>(value: "sizes:").fold(sizes) { text, size in Future(value: "\(text) \(size)") }
print(try total.value, try index.value, try report.value)
// snippet.end

// snippet.fanout
let urls = (1...20).map { "image\($0).png" }
let images = Future.all(urls, maxConcurrent: 4) { url in  // at most 4 downloads at a time
    BackgroundFuture { () throws(LoadError) in try download(url) }
}
print(try images.value.count)  // 20, in the order of urls
// snippet.end
