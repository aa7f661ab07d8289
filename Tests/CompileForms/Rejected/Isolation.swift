// Main-actor state changed from a callback that does not run on the main actor, and blocking
// reads in async code.
import Futures

@MainActor final class TitleModel {
    var title = ""
}

@MainActor func immediateCallbacks(future: Future<String, Never>, model: TitleModel) {
    // expect error: main actor-isolated property 'title' can not be mutated from a Sendable closure
    future.onSuccess { model.title = $0 }
    // expect error: main actor-isolated property 'title' can not be mutated from a Sendable closure
    future.onSuccess(on: ExecutionContext.main) { model.title = $0 }
}

func blockingReadsInAsyncCode(future: Future<String, Never>) async -> String {
    // expect error: 'value' is unavailable from asynchronous contexts; a blocking read can starve Swift's cooperative pool; use 'await future.get()'
    future.value
}
