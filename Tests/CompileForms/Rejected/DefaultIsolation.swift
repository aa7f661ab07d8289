// swiftc-flags: -default-isolation MainActor
// With default main-actor isolation, a callback on the resolving thread cannot touch the model,
// nor can background work call a function that is not `nonisolated`.
import Futures

final class Model {
    var title = ""

    func load(_ title: Future<String, Never>) {
        // expect error: main actor-isolated property 'title' can not be mutated from a Sendable closure
        title.onSuccess { self.title = $0 }
        title.onSuccess(on: .main) { self.title = $0 }
    }
}

func compute() -> Int { 42 }

func start() -> Future<Int, Never> {
    // expect error: call to main actor-isolated global function 'compute()' in a synchronous nonisolated context
    BackgroundFuture { compute() }
}
