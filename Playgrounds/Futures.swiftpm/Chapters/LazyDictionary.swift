import Dispatch

/// A dictionary of lazy futures: only the entries read are ever loaded.
struct LazyDictionary: Chapter {
    let title = "The lazy dictionary"
    let summary =
        "LazyFuture { work } runs work on the first read, on the reader's thread, once. "
        + "A dictionary of them loads only what is read."

    func run(_ log: ChapterLog) {
        let runs = Counter()
        let names = ["config", "glossary", "index", "notes", "tags", "users"]
        var files: [String: LazyFuture<UInt64, Never>] = [:]
        for name in names {
            files[name] = LazyFuture {
                runs.increment()
                return simulatedLoad(name, size: 1 << 16)
            }
        }
        log.check(runs.value == 0, "\(files.count) lazy futures made; none of their closures has run")
        let config = files["config"]!
        _ = config.value
        _ = config.value
        log.check(runs.value == 1, "reading config twice ran one closure, once")
        log.check(files["notes"]!.peek == nil && runs.value == 1, "peek looks without running anything")
        let index = files["index"]!
        let readers = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            if index.value == simulatedLoad("index", size: 1 << 16) { readers.increment() }
        }
        log.check(readers.value == 8 && runs.value == 2, "8 threads read index at once: all got it, it loaded once")
        log.say("in the end \(runs.value) of \(files.count) files were loaded; \(files.count - runs.value) never were")
    }
}
