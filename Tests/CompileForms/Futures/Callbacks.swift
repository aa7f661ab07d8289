// Callbacks on every kind of context, chained; `.main` callbacks from main-actor code and from
// code that is not isolated.
import Dispatch
import Futures

@MainActor final class ScreenModel {
    var title = ""
    var image: [UInt8] = []
    var lastError: (any Error)?
}

@MainActor func mainActorCallbacks(title: Future<String, Never>, image: Future<[UInt8], any Error>, model: ScreenModel)
{
    title.onSuccess(on: .main) { model.title = $0 }
    image
        .onSuccess(on: .main) { model.image = $0 }
        .onFailure(on: .main) { model.lastError = $0 }
        .onComplete(on: .main) { _ in model.title = "done" }
    image.onComplete(on: .main) { result in
        switch result {
        case .success(let bytes): model.image = bytes
        case .failure(let error): model.lastError = error
        }
    }
    MainActorContext.main.execute { model.title = "later" }
}

func callbacksFromAnyCode(title: Future<String, Never>, typed: Future<Int, LoadError>, model: ScreenModel) {
    title.onSuccess(on: .main) { model.title = $0 }
    title.onSuccess { show($0) }
    title.onSuccess(on: .immediate) { show($0) }
    title.onSuccess(on: .global()) { show($0) }
    title.onSuccess(on: .global(qos: .utility)) { show($0) }
    title.onSuccess(on: .queue(DispatchQueue(label: "log"))) { show($0) }
    title.onSuccess(on: ExecutionContext.main) { show($0) }
    title.onSuccess(on: ExecutionContext { work in work() }) { show($0) }
    typed
        .onFailure { (error: LoadError) in show("\(error)") }
        .onSuccess(on: .main) { model.title = "\($0)" }
        .onComplete { (result: Result<Int, LoadError>) in show("\(result)") }
    let printer: @Sendable (String) -> Void = { show($0) }
    title.onSuccess(on: .main, printer)
    let chained: Future<Int, LoadError> = typed.onSuccess { _ in }
    expectType(chained, Future<Int, LoadError>.self)
}
