// The code of the article "Standing in for the value": FutureProxy's forwarding.

// snippet.imports
import FutureProxy
// snippet.end

// snippet.hide
func loadNames() -> [String] { ["Grace", "Ada", "Barbara"] }
struct Page: Sendable {
    var title: String
    var words: [String]
}
enum FetchError: Error {
    case offline
}
func fetchPage() throws(FetchError) -> Page { Page(title: "Futures", words: ["implicit", "futures"]) }
// snippet.show

// snippet.members
let names = LazyFuture { loadNames() }  // Future<[String], Never>; nothing runs yet
print(names.count)  // runs loadNames(), then reads count
print(names[0], names.first ?? "-")  // the value is there now: plain reads
print(names().sorted())  // methods, through (): the value itself
// snippet.end

// snippet.throwing
let page = BackgroundFuture { () throws(FetchError) in try fetchPage() }  // Future<Page, FetchError>
let title = try page.title  // a future that can fail makes every forwarded read throw
let firstWord = try page().words.first  // and `()` too
// snippet.end
print(title, firstWord ?? "-")

// snippet.compare
let answer = LazyFuture { 6 * 7 }  // Future<Int, Never>
print(answer == 42, 42 == answer, answer < 50)  // comparisons with plain values, both sides
print(answer == BackgroundFuture { 42 })  // two futures compare their values
let next: Int = answer + 1  // arithmetic waits and gives a plain Int
print("\(answer) and \(next)")  // description is the value's
// snippet.end

// snippet.collection
for name in names {  // a future of a sequence is a Sequence
    print("hello, \(name)")
}
func longest(of words: some Collection<String>) -> String? {
    words.max { $0.count < $1.count }
}
print(longest(of: names) ?? "-")  // a future of a collection is a Collection
// snippet.end

// snippet.optional
let nickname = LazyFuture { () -> String? in nil }  // Future<String?, Never>
let length = nickname.count  // Int?: optional-chained, nil here
// snippet.end
print(length as Any)

// snippet.deferred
let count = names.map { $0.count }  // the future's own map: a Future<Int, Never>
let countToo = names.deferred.count  // the same, through a member
let shouted = names().map { $0.uppercased() }  // the value's map, through (): [String]
// snippet.end
print(count.value, countToo.value, shouted)

// snippet.debug
let table = LazyFuture { [1, 2, 3] }
debugPrint(table)  // LazyFuture<Array<Int>>(pending, created at …): never blocks
// snippet.end
