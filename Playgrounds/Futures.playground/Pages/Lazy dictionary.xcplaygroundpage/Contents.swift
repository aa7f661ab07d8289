//: [Previous](@previous)
/*:
 # A dictionary of lazy futures

 `LazyFuture { work }` runs `work` the first time someone reads the future, on the reading
 thread, exactly once. A future nobody reads never runs its work.

 MAFuture's example filled a global dictionary with data files, each behind a lazy future, so
 that only the files somebody looks up are ever loaded. Here is that dictionary, with a
 `Tally` counting the closures that actually ran.
 */
import Dispatch
import FutureProxy

let runs = Tally()
let names = ["dataFile", "anotherDataFile", "moreDataFile", "fourthDataFile", "config", "glossary", "index", "notes"]

var files: [String: LazyFuture<FileSummary, Never>] = [:]
for name in names {
    files[name] = LazyFuture {
        runs.increment()
        return SimulatedFile(name: name).load()
    }
}
print("\(files.count) lazy futures in the dictionary; closures run so far: \(runs.value)")
check(runs.value == 0, "making lazy futures runs nothing")

/*:
 ## Only what is read is computed

 Reading `value` runs the work (here, on this thread) and keeps the result. A second read of
 the same future returns the kept result without running anything.
 */
let config = files["config"]!
print("config: \(config.value.lineCount) lines")
print("closures run after reading one entry: \(runs.value)")
print("config again: \(config.value.lineCount) lines; closures run: \(runs.value)")
check(runs.value == 1, "one entry read, one closure run")

let glossary = files["glossary"]!.value
print("glossary: \(glossary)")
print("closures run after reading two entries: \(runs.value) of \(files.count)")
check(runs.value == 2, "two entries read, two closures run")

/*:
 `isResolved` and `peek` look without blocking and without starting any work: asking never
 loads a file.
 */
for name in names {
    let state = files[name]!.isResolved ? "loaded" : "never loaded"
    print("  \(name): \(state)")
}
print("peek at notes: \(String(describing: files["notes"]!.peek)); closures run: \(runs.value)")
check(runs.value == 2, "looking never runs work")

/*:
 ## Exactly once, however many threads race

 Eight threads read the same unread entry at the same moment. One of them runs the work; the
 others wait for it and share the result. The work runs once.
 */
let index = files["index"]!
let summaries = Tally()
DispatchQueue.concurrentPerform(iterations: 8) { _ in
    if index.value.lineCount > 0 { summaries.increment() }
}
print("8 threads read 'index' at once: \(summaries.value) of them got the summary; closures run: \(runs.value)")
check(summaries.value == 8 && runs.value == 3, "8 racing readers, one run")

print("in the end \(runs.value) of \(files.count) files were loaded; \(files.count - runs.value) never were")

//: [Next](@next)
