// The code of the async toolbox sections of the article "Composing futures".
import Futures

// snippet.hide
enum LoadError: Error {
    case unreachable(String)
}
func download(_ url: String) throws(LoadError) -> [UInt8] {
    guard url.hasSuffix(".png") else { throw .unreachable(url) }
    return Array(url.utf8)
}
let sizes = ["a.png", "b.png", "c.example"].map { url in
    BackgroundFuture { () throws(LoadError) in try download(url).count }
}
// snippet.show

// snippet.completions
for await result in Future.completions(of: sizes) {  // as each finishes
    print(result)
}
// snippet.end

// snippet.cancellable
let pending = Promise<Int, any Error>()
let waiter = Task { try await pending.future.get() }  // Future<Int, any Error>: get() is cancellable
waiter.cancel()
print(await waiter.result)  // failure(CancellationError()); the future goes on
let neverFails = Promise<Int, Never>()
let other = Task { try await neverFails.future.cancellableResult() }  // any future: a cancellable wait
other.cancel()
print(await other.result)
// snippet.end
