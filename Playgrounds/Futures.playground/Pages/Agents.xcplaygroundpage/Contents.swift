//: [Previous](@previous)
/*:
 # Agents

 An `Agent` owns an object that is not thread-safe, on a serial queue of its own. Any thread
 hands it work with `async { object in ... }`; the pieces run one at a time, in the order they
 were submitted, and each returns a future of its result. This is SPAgent's idea, from the
 same family of libraries as SPTask.

 Here the object is a notebook: a class with a plain array, no lock.
 */
import Dispatch
import FutureProxy

final class Notebook {
    private(set) var notes: [String] = []
    func add(_ note: String) { notes.append(note) }
}

let notebook = Agent(Notebook())

//: A hundred threads write at once. Every write runs on the agent's queue, so none is lost.
DispatchQueue.concurrentPerform(iterations: 100) { writer in
    notebook.async { $0.add("note \(writer)") }
}
let count = notebook.async { $0.notes.count }  // queued behind the 100 writes
print("notes after 100 concurrent writes: \(count.value)")
check(count.value == 100, "no write is lost")

//: Work from one thread runs in the order it was submitted.
notebook.async { $0.add("first") }
notebook.async { $0.add("second") }
let lastTwo = notebook.async { Array($0.notes.suffix(2)) }
print("the last two notes: \(lastTwo.value)")
check(lastTwo.value == ["first", "second"], "work runs in submission order")

/*:
 ## Results are futures

 What `async` returns composes like any future, and an agent's work can fail with a typed
 error.
 */
enum NotebookError: Error {
    case empty
}

let summary = notebook.async { $0.notes.count }.map { "\($0) notes" }
print("summary: \(summary.value)")

let oldest = notebook.async { notebook throws(NotebookError) -> String in
    guard let first = notebook.notes.first else { throw .empty }
    return first
}
print("oldest note: \(oldest.result)")

/*:
 An agent's work always runs on its queue, never on a reader's thread: a reader waits for it.
 So don't read an agent's future from inside work on the same agent: that work would wait for
 itself, like `DispatchQueue.sync` on the current queue. Compose with `map` instead.

 **Agents or actors?** Both give an object a serial home. Use an actor from async code; use an
 agent when the callers are synchronous, when the work blocks (file or database I/O that should
 not hold a thread of Swift's cooperative pool), or when you want futures that compose and read
 with `value`.
 */

//: [Next](@next)
