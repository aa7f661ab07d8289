// Agents: work on an object owned by a serial queue, composed like any future.
import Futures

final class Notebook {
    var notes: [String] = []
    func check() throws(LoadError) -> Int { notes.count }
}

func agentForms() {
    let notebook = Agent(Notebook())
    notebook.async { $0.notes.append("milk") }
    expectType(notebook.async { $0.notes.count }, BackgroundFuture<Int, Never>.self)
    expectType(
        notebook.async { notebook throws(LoadError) in try notebook.check() }, BackgroundFuture<Int, LoadError>.self)
    expectType(notebook.async { $0.notes.count }.map { $0 + 1 }, Future<Int, Never>.self)
    expectType(notebook.async { $0.notes.count }.flatMap { fetchUser($0) }, Future<User, LoadError>.self)
    expectType(
        notebook.async { notebook throws(LoadError) in try notebook.check() }.map { $0 + 1 }.flatMap { fetchUser($0) },
        Future<User, LoadError>.self)
}

/// A typed API whose work cannot fail.
func noteCount(in notebook: Agent<Notebook>) -> Future<Int, LoadError> {
    notebook.async { $0.notes.count }.setFailureType(to: LoadError.self)
}
