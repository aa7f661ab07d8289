// The code of the article "Migrating from MAFuture, BrightFutures, PromiseKit and SwiftNIO".

// snippet.imports
import Dispatch
import Futures
// snippet.end

// snippet.hide
struct Response: Sendable {
    let body: String
}
enum APIError: Error {
    case badStatus(Int)
}
func send(_ path: String) throws(APIError) -> Response {
    guard path.hasPrefix("/") else { throw .badStatus(404) }
    return Response(body: "{\"path\": \"\(path)\"}")
}
func parse(_ response: Response) -> [String: String] { ["body": response.body] }
func show(_ model: [String: String]) { print(model) }
func report(_ error: any Error) { print("error: \(error)") }
// snippet.show

// snippet.chain
// future { }, DispatchQueue.global().async(.promise) { }, eventLoop.submit { }
let request = BackgroundFuture { () throws(APIError) -> Response in try send("/notes") }
let model = request.map { parse($0) }  // .map
model
    .onSuccess { show($0) }  // .onSuccess / .done / .whenSuccess
    .onFailure { report($0) }  // .onFailure / .catch / .whenFailure
// snippet.end
_ = model.result

// snippet.promise
let promise = Promise<Response, APIError>()  // Promise() / Promise.pending() / eventLoop.makePromise()
DispatchQueue.global().async {
    promise.complete(with: Result { () throws(APIError) in try send("/notes") })
}
let body = promise.future.map { $0.body }
// snippet.end
print(try body.value)

// snippet.blocking
let answer = try request.value  // .forced() / .wait() — blocks, and is `noasync`
let finished = request.peek  // .result / .value? — never blocks
// snippet.end
print(answer.body, finished != nil)

// snippet.async
func latestBody() async throws(APIError) -> String {
    try await request.get().body  // NIO's get(): suspends instead of blocking
}
// snippet.end
let done = DispatchSemaphore(value: 0)
Task.detached {
    print(try await latestBody())
    done.signal()
}
done.wait()
