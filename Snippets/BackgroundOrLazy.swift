// The code of the article "Background or lazy?": choosing a kind of future.

// snippet.imports
import Dispatch
import Futures
import Synchronization
// snippet.end

// snippet.hide
struct Thumbnail: Sendable {
    let name: String
}
func render(_ name: String) -> Thumbnail { Thumbnail(name: name) }
func checksum(of name: String) -> Int { name.unicodeScalars.reduce(0) { $0 &* 31 &+ Int($1.value) } }
let names = ["cat", "dog", "owl", "yak"]
let renders = Atomic<Int>(0)
// snippet.show

// snippet.parallel
let sums = names.map { name in BackgroundFuture { checksum(of: name) } }  // all start now
let total = sums.reduce(0) { $0 &+ $1.value }  // waits for each in turn
// snippet.end
print("total: \(total)")

// snippet.maybe
var thumbnails: [String: LazyFuture<Thumbnail, Never>] = [:]
for name in names {
    thumbnails[name] = LazyFuture {
        renders.add(1, ordering: .relaxed)
        return render(name)
    }
}
print(thumbnails["owl"]!.value.name)  // only the owl is rendered, on this thread
// snippet.end
print("renders: \(renders.load(ordering: .relaxed))")

// snippet.context
let thumbnail = BackgroundFuture(on: .global(qos: .userInitiated)) { render("cat") }
let io = DispatchQueue(label: "io", qos: .utility, attributes: .concurrent)
let header = BackgroundFuture(on: .queue(io)) { checksum(of: "header") }
let logged = ExecutionContext { work in io.async(execute: work) }  // any function that runs work
let footer = BackgroundFuture(on: logged) { checksum(of: "footer") }
// snippet.end
print(thumbnail.value.name, header.value, footer.value)

// snippet.delayed
let retry = BackgroundFuture(after: .milliseconds(20)) { checksum(of: "retry") }
// snippet.end
print("retry: \(retry.value)")

// snippet.derived
let owl = thumbnails["yak"]!.map { $0.name.uppercased() }  // lazy, like its source
print(owl.isResolved)  // false: nothing has run
print(owl.value)  // renders the yak now, then maps it
// snippet.end

// snippet.wrappers
struct Screen: Sendable {
    @Background var header = render("header")  // starts when a Screen is made
    @Lazy var details = render("details")  // runs on first read, if ever
}
let screen = Screen()
print(screen.header.name)  // waits only if the header is not rendered yet
print(screen.$details.isResolved)  // false: `$details` is the LazyFuture
// snippet.end
