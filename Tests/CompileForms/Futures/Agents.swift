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
    expectType(notebook.async { notebook throws(LoadError) in try notebook.check() }, BackgroundFuture<Int, LoadError>.self)
    expectType(notebook.async { $0.notes.count }.map { $0 + 1 }, Future<Int, Never>.self)
    expectType(
        notebook.async { notebook throws(LoadError) in try notebook.check() }.map { $0 + 1 }.flatMap { fetchUser($0) },
        Future<User, LoadError>.self)
}

/// A typed API whose work cannot fail: the error type comes from the return type.
func noteCount(in notebook: Agent<Notebook>) -> BackgroundFuture<Int, LoadError> {
    notebook.async { $0.notes.count }
}
