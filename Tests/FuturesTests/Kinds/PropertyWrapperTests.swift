import Dispatch
import Futures
import Testing

/// A type with wrapped stored properties, counting how often each one's work ran.
struct Catalog: Sendable {
    let indexRuns: Counter
    let totalRuns: Counter
    @Lazy var index: [String]
    @Background var total: Int

    /// `gate` holds the background work; `nil` lets it run at once.
    init(gate: Gate? = nil) {
        let indexRuns = Counter()
        let totalRuns = Counter()
        self.indexRuns = indexRuns
        self.totalRuns = totalRuns
        _index = Lazy(
            wrappedValue: {
                indexRuns.increment()
                return ["a", "b"]
            }())
        _total = Background(
            wrappedValue: {
                gate?.wait()
                totalRuns.increment()
                return 99
            }())
    }
}

/// Stored properties declared the way users write them.
struct Settings {
    @Lazy var theme = loadTheme()
    @Background var fonts = loadFonts()
}

let themeLoads = Counter()
let fontLoads = Counter()
func loadTheme() -> String {
    themeLoads.increment()
    return "dark"
}
func loadFonts() -> [String] {
    fontLoads.increment()
    return ["Menlo"]
}

@Suite("Property wrappers")
struct PropertyWrapperTests {
    @Test("@Lazy on a local variable runs no work before the first read, and runs it once")
    func lazyLocal() {
        let runs = Counter()
        @Lazy var table = {
            runs.increment()
            return [1, 2, 3]
        }()
        #expect(runs.value == 0)
        #expect(!$table.isResolved)
        #expect(table.count == 3)
        #expect(table == [1, 2, 3])
        #expect(runs.value == 1)
        #expect($table.isResolved)
    }

    @Test("@Lazy on a stored property runs no work before the first read, and runs it once")
    func lazyStored() {
        let catalog = Catalog()
        #expect(catalog.indexRuns.value == 0)
        #expect(!catalog.$index.isResolved)
        #expect(catalog.index == ["a", "b"])
        #expect(catalog.index.count == 2)
        #expect(catalog.indexRuns.value == 1)
    }

    @Test("@Lazy read from many threads runs the work once", arguments: [2, 16, 64])
    func lazyConcurrent(threads: Int) {
        for _ in 0..<10 {
            let catalog = Catalog()
            let wrong = Counter()
            let racers = RacingThreads(count: threads)
            racers.race { _ in
                if catalog.index != ["a", "b"] || catalog.total != 99 { wrong.increment() }
            }
            racers.stop()
            #expect(catalog.indexRuns.value == 1)
            #expect(catalog.totalRuns.value == 1)
            #expect(wrong.value == 0)
        }
    }

    @Test("@Background on a local variable starts without waiting for the work, and runs it once")
    func backgroundLocal() {
        let runs = Counter()
        let gate = Gate()
        @Background var image = {
            gate.wait()
            runs.increment()
            return "pixels"
        }()
        // The declaration returned while the work is held by the gate: it did not run inline.
        #expect(runs.value == 0)
        #expect(!$image.isResolved)
        gate.open()
        #expect(image == "pixels")
        #expect(image.count == 6)
        #expect(runs.value == 1)
    }

    @Test("@Background on a stored property starts without waiting, and runs once")
    func backgroundStored() {
        let gate = Gate()
        let catalog = Catalog(gate: gate)
        #expect(catalog.totalRuns.value == 0)
        gate.open()
        #expect(catalog.total == 99)
        #expect(catalog.total + 1 == 100)
        #expect(catalog.totalRuns.value == 1)
    }

    @Test("@Background runs its work on the given context")
    func backgroundContext() {
        let executed = Counter()
        let queue = DispatchQueue(label: "wrapper-test")
        let context = ExecutionContext { work in
            executed.increment()
            queue.async(execute: work)
        }
        @Background(on: context) var answer = 42
        #expect(executed.value == 1)
        #expect(answer == 42)
    }

    @Test("wrappers declared as users write them: the initial value is the work")
    func declaredProperties() {
        let themesBefore = themeLoads.value
        let settings = Settings()
        #expect(themeLoads.value == themesBefore)
        #expect(settings.theme == "dark")
        #expect(settings.theme == "dark")
        #expect(themeLoads.value == themesBefore + 1)
        #expect(settings.fonts == ["Menlo"])
        #expect(settings.$fonts.isResolved)
    }

    @Test("the projection is the future, created where the property is declared")
    func projectionIsTheFuture() {
        @Lazy var word = "hi"
        let line = #line - 1
        let future: LazyFuture<String, Never> = $word
        #expect(
            future.debugDescription
                == "LazyFuture<String>(pending, created at FuturesTests/PropertyWrapperTests.swift:\(line))")
        #expect(word == "hi")
        #expect(future.isResolved)
    }

    @Test("@Lazy releases what its work captured once the work has run")
    func lazyReleasesCapture() {
        weak var weakResource: Resource?
        let holder: Holder
        do {
            let resource = Resource()
            weakResource = resource
            holder = Holder(resource: resource)
        }
        #expect(weakResource != nil)  // held by the work, which has not run
        #expect(holder.size == 1)
        #expect(weakResource == nil)  // dropped once it ran, while the property lives on
        #expect(holder.size == 1)
    }
}

final class Resource: Sendable {}

struct Holder {
    @Lazy var size: Int

    init(resource: Resource) {
        _size = Lazy(wrappedValue: [resource].count)
    }
}
