import Foundation
import Synchronization
import Testing

@testable import FuturesApps

/// A value whose lifetime a test watches: a reader that found it freed would read a zeroed
/// check word (or crash); `live` counts the pages not yet freed.
private final class Page: Sendable {
    static let checkWord = 0x5A5A_A5A5
    let number: Int
    let check = Atomic<Int>(Page.checkWord)
    private let live: LiveCount?

    init(_ number: Int, live: LiveCount? = nil) {
        self.number = number
        self.live = live
        live?.count.add(1, ordering: .sequentiallyConsistent)
    }

    deinit {
        check.store(0, ordering: .sequentiallyConsistent)
        live?.count.subtract(1, ordering: .sequentiallyConsistent)
    }

    var isIntact: Bool { check.load(ordering: .sequentiallyConsistent) == Page.checkWord }
}

/// How many pages are alive.
private final class LiveCount: Sendable {
    let count = Atomic<Int>(0)
}

private struct Summary: Codable, Equatable, Sendable {
    var name: String
    var words: [String]
}

@Suite("DiscardableLazyFuture", .hangGuard(minutes: 2))
struct DiscardableLazyFutureTests {
    @Test("the first read computes the value; later reads find it without computing")
    func firstReadComputes() {
        let runs = Counter()
        let page = DiscardableLazyFuture { runs.increment() }
        #expect(page.isContentDiscarded)
        #expect(runs.value == 0)
        #expect(page.value == 1)
        #expect(page.value == 1)
        #expect(runs.value == 1)
        #expect(!page.isContentDiscarded)
    }

    @Test("discard drops the value and returns true only when it dropped something; the next read computes again")
    func discardDropsAndRecomputes() {
        let runs = Counter()
        let page = DiscardableLazyFuture { runs.increment() }
        #expect(!page.discard())
        #expect(page.value == 1)
        #expect(page.discard())
        #expect(page.isContentDiscarded)
        #expect(!page.discard())
        #expect(page.value == 2)
        #expect(runs.value == 2)
    }

    @Test(
        "the work runs once per computation however many threads read at once, round after round",
        arguments: [2, 8, 64])
    func oncePerComputationUnderManyThreads(threads: Int) {
        let runs = Counter()
        let page = DiscardableLazyFuture { Page(runs.increment()) }
        let racers = RacingThreads(count: threads)
        defer { racers.stop() }
        let wrong = Counter()
        for round in 1...50 {
            racers.race { _ in
                let read = page.value
                if read.number != round || !read.isIntact { wrong.increment() }
            }
            #expect(runs.value == round)
            #expect(page.discard())
        }
        #expect(wrong.value == 0)
        #expect(page.computationCount == 50)
    }

    @Test("a value dropped by memory pressure is computed again exactly once for many concurrent readers")
    func purgedValueRecomputedOnce() {
        let runs = Counter()
        let relief = MemoryPressureRelief()
        let page = DiscardableLazyFuture(pressure: relief) { Page(runs.increment()) }
        let racers = RacingThreads(count: 16)
        defer { racers.stop() }
        for round in 1...30 {
            racers.race { _ in _ = page.value }
            #expect(runs.value == round)
            #expect(relief.relieve() == 1)
            #expect(page.isContentDiscarded)
        }
    }

    @Test("threads and tasks reading at once share one computation")
    func threadsAndTasksShareOneComputation() async {
        for round in 1...20 {
            let runs = Counter()
            let gate = Gate()
            let page = DiscardableLazyFuture { () -> Int in
                gate.wait()
                return runs.increment()
            }
            async let fromThreads: Void = onThreads(8) { _ in #expect(page.value == 1) }
            await withTaskGroup(of: Int.self) { group in
                for _ in 0..<32 { group.addTask { await page.get() } }
                gate.open()
                for await value in group { #expect(value == 1) }
            }
            await fromThreads
            #expect(runs.value == 1, "round \(round)")
        }
    }

    @Test("a value being read is never freed under its reader, with discards racing the reads")
    func valueNeverFreedUnderAReader() async {
        let live = LiveCount()
        let runs = Counter()
        let page = DiscardableLazyFuture { Page(runs.increment(), live: live) }
        let broken = Counter()
        let stop = Atomic<Bool>(false)
        let reads = Counter()
        let discards = Counter()
        await onThreads(9) { index in
            if index == 0 {
                // Discards until the readers have read many times; each read races a discard.
                while reads.value < 20_000 {
                    if page.discard() { discards.increment() }
                }
                stop.store(true, ordering: .sequentiallyConsistent)
                return
            }
            repeat {
                let read = page.value
                for _ in 0..<10 where !read.isIntact { broken.increment() }
                reads.increment()
            } while !stop.load(ordering: .sequentiallyConsistent)
        }
        #expect(broken.value == 0)
        page.discard()
        // Every dropped value was freed once its readers let go.
        #expect(live.count.load(ordering: .sequentiallyConsistent) == 0)
        #expect(runs.value >= 1)
        // Each computation was dropped at most once (the last by the final discard).
        #expect(discards.value + 1 == runs.value)
    }

    @Test("a pinned value survives discard and memory pressure until every pin is released")
    func pinsHoldTheValue() {
        let runs = Counter()
        let relief = MemoryPressureRelief()
        let page = DiscardableLazyFuture(pressure: relief) { runs.increment() }
        #expect(page.beginContentAccess())
        #expect(runs.value == 1)
        #expect(page.beginContentAccess())
        #expect(!page.discard())
        #expect(!page.invalidate())
        #expect(relief.relieve() == 0)
        #expect(!page.isContentDiscarded)
        page.endContentAccess()
        #expect(!page.discard())
        page.endContentAccess()
        #expect(page.discard())
        #expect(page.value == 2)
    }

    @Test("beginContentAccess returns false when computing fails, and pins nothing")
    func failedComputationPinsNothing() {
        let runs = Counter()
        let table = DiscardableLazyFuture { () throws(ParseError) -> Int in
            throw .badDigit(position: runs.increment())
        }
        #expect(!table.beginContentAccess())
        #expect(table.result == .failure(.badDigit(position: 1)))
        #expect(table.isContentDiscarded)
        // The failure is kept like a value, and dropped like one: then the work runs again.
        #expect(throws: ParseError.badDigit(position: 1)) { try table.value }
        #expect(table.discard())
        #expect(throws: ParseError.badDigit(position: 2)) { try table.value }
    }

    @Test("discard returns false while the value is being computed, and the computation's value is kept")
    func discardDuringComputation() async {
        let gate = Gate()
        let started = Signal()
        let page = DiscardableLazyFuture { () -> Int in
            started.send()
            gate.wait()
            return 9
        }
        async let read = onPlainThread { page.value }
        let didStart = await onPlainThread { started.wait() }
        #expect(didStart)
        #expect(!page.discard())
        gate.open()
        #expect(await read == 9)
        #expect(!page.isContentDiscarded)
    }

    @Test("a cancelled task stops waiting with CancellationError; the computation goes on for others")
    func asyncWaitIsCancellable() async throws {
        let gate = Gate()
        let page = DiscardableLazyFuture { () throws -> Int in
            gate.wait()
            return 4
        }
        let waiter = Task { try await page.get() }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        gate.open()
        #expect(try await page.get() == 4)
    }

    @Test("a discarded future is freed with its value; memory pressure does not keep it alive")
    func discardableFutureIsFreed() {
        let (weakPage, canary) = withCanary { canary in
            let page = DiscardableLazyFuture { canary.name }
            _ = page.value
            return WeakBox(page)
        }
        #expect(weakPage.isReleased)
        #expect(canary.isReleased)
    }

    @Test("with storage on disk, a discarded value is read back instead of computed; invalidate computes again")
    func diskStorageReadsBack() throws {
        let directory = FileManager.default.temporaryDirectory
        let runs = Counter()
        var file: URL?
        do {
            let summary = DiscardableLazyFuture(storingIn: directory) {
                Summary(name: "doc \(runs.increment())", words: ["a", "b"])
            }
            file = summary.storageFile
            #expect(summary.value == Summary(name: "doc 1", words: ["a", "b"]))
            let path = try #require(file).path
            #expect(FileManager.default.fileExists(atPath: path))
            #expect(summary.discard())
            #expect(summary.isContentDiscarded)
            #expect(summary.value.name == "doc 1")
            #expect(runs.value == 1)
            #expect(summary.invalidate())
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(summary.value.name == "doc 2")
            #expect(runs.value == 2)
            #expect(FileManager.default.fileExists(atPath: path))
        }
        // Freed: its file is gone.
        #expect(!FileManager.default.fileExists(atPath: try #require(file).path))
    }

    @Test("a copy on disk that cannot be read back is computed again instead, once for many readers")
    func unreadableCopyIsRecomputed() throws {
        let runs = Counter()
        let summary = DiscardableLazyFuture(storingIn: FileManager.default.temporaryDirectory) {
            Summary(name: "doc \(runs.increment())", words: [])
        }
        _ = summary.value
        let file = try #require(summary.storageFile)
        try Data("not json".utf8).write(to: file)
        #expect(summary.discard())
        let racers = RacingThreads(count: 8)
        defer { racers.stop() }
        racers.race { _ in _ = summary.value }
        #expect(runs.value == 2)
        #expect(summary.value.name == "doc 2")
    }

    @Test("endContentAccess without a pin traps, naming the type and the creation site")
    func unbalancedEndTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let page = DiscardableLazyFuture { 1 }
            page.endContentAccess()
        }
        guard let result else { return }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("DiscardableLazyFuture<Int>"))
        #expect(message.contains("endContentAccess()"))
    }

    @Test("reading a discardable lazy future from inside its own work traps instead of hanging")
    func readingFromInsideTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            readDiscardableFutureFromInsideItsOwnWork()
        }
        guard let result else { return }
        #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("inside its own work"))
    }
}

/// Makes a discardable lazy future whose work reads the future itself, and reads it.
private func readDiscardableFutureFromInsideItsOwnWork() {
    let itself = Slot<DiscardableLazyFuture<Int, Never>>()
    let page = DiscardableLazyFuture { itself.value!.value + 1 }
    itself.value = page
    _ = page.value
}

extension DiscardableLazyFuture {
    /// A discardable lazy future that only `relief` discards under (simulated) memory pressure,
    /// so that a test's pressure touches no other test's futures.
    fileprivate convenience init(
        pressure relief: MemoryPressureRelief, _ work: @escaping @Sendable () throws(Failure) -> Value
    ) {
        self.init(storage: nil, relief: relief, fileID: #fileID, line: #line, work: work)
    }
}
