import Foundation
import Testing

@testable import Futures

/// Main-actor state, as a view model in an app holds it.
@MainActor
private final class ScreenModel {
    var title = ""
    var error: ParseError?
    var events: [String] = []
    var ranOnMainQueue: [Bool] = []
}

/// Tells whether the current code runs on the main dispatch queue.
private let mainQueueMarker = QueueMarker(.main)

@Suite("callbacks on the main actor")
struct MainActorCallbackTests {
    @Test("from main-actor code, a .main callback may change main-actor state, and runs on the main actor")
    @MainActor
    func mainCallbackChangesMainActorState() async {
        let model = ScreenModel()
        let promise = Promise<String, Never>()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            promise.future.onSuccess(on: .main) {
                model.title = $0
                model.ranOnMainQueue.append(mainQueueMarker.isCurrent)
                done.resume()
            }
            DispatchQueue.global().async { promise.succeed("Futures") }
        }
        #expect(model.title == "Futures")
        #expect(model.ranOnMainQueue == [true])
    }

    @Test("onComplete, onSuccess and onFailure on .main each run once, added before or after resolution")
    func eachMainCallbackRunsOnce() async {
        let model = ScreenModel()
        let promise = Promise<Int, ParseError>()
        let ran = Signal()
        let future = promise.future
        func register(_ tag: String) {
            future
                .onComplete(on: .main) { _ in
                    model.events.append("complete \(tag)"); ran.send()
                }
                .onSuccess(on: .main) { _ in
                    model.events.append("success \(tag)"); ran.send()
                }
                .onFailure(on: .main) { error in
                    model.error = error
                    model.events.append("failure \(tag)")
                    ran.send()
                }
        }
        register("before")
        promise.fail(.empty)
        register("after")
        for _ in 0..<4 { #expect(ran.wait()) }
        await MainActor.run {
            #expect(model.error == .empty)
            #expect(model.events.sorted() == ["complete after", "complete before", "failure after", "failure before"])
        }
    }

    @Test("main-actor callbacks and ExecutionContext.main work run in the order they were handed over")
    func mainActorAndMainQueueShareOneOrder() async {
        let model = ScreenModel()
        let future = Future<Int, Never>(resolved: .success(1), fileID: #fileID, line: #line)
        let done = Signal()
        for index in 0..<20 {
            if index.isMultiple(of: 2) {
                future.onSuccess(on: .main) { _ in model.events.append("\(index)") }
            } else {
                future.onSuccess(on: ExecutionContext.main) { _ in
                    MainActor.assumeIsolated { model.events.append("\(index)") }
                }
            }
        }
        MainActorContext.main.execute { done.send() }
        #expect(done.wait())
        await MainActor.run {
            #expect(model.events == (0..<20).map { "\($0)" })
        }
    }
}
