import Synchronization
import Testing

@testable import Futures

/// Every transition of the state word, as plain values: no threads, no futures.
struct StateWordTests {
    static let site: StaticString = "Core/StateWordTests.swift"

    /// Links of some kind, as a future with links has: its word keeps its file's number. (A plain
    /// value: nothing here follows it.)
    static let someLinks = FutureLinks(bits: 0)

    static func word(_ kind: FutureKind = .lazy, phase: StateWord.Phase = .pending) -> StateWord {
        var word = StateWord.initial(kind: kind, links: someLinks, fileID: site, line: 42)
        word.phase = phase
        return word
    }

    @Test("a new word is pending, has no flags, and keeps its kind and creation site", arguments: FutureKind.allCases)
    func initialWord(kind: FutureKind) {
        let word = Self.word(kind)
        #expect(word.phase == .pending)
        #expect(word.kind == kind)
        #expect(!word.hasWaiters && !word.hasCallbacks && !word.isCancelled && !word.isResolved)
        #expect(word.line == 42)
        #expect(CreationSite.describe(number: word.fileNumber, line: word.line) == "Core/StateWordTests.swift:42")
    }

    @Test("a future with no links keeps its creation file in its links, not in its word")
    func siteInLinks() throws {
        let word = StateWord.initial(kind: .lazy, links: .none, fileID: Self.site, line: 42)
        #expect(word.fileNumber == 0 && word.line == 42 && word.kind == .lazy)
        let links = FutureLinks.none.orSite(Self.site)
        #expect(!links.isNone && links.sources == nil)
        let file = try #require(links.siteFile)
        #expect(String(cString: file) == "Core/StateWordTests.swift")
        // Links that are not `none` stay as they are.
        #expect(Self.someLinks.orSite(Self.site).bits == Self.someLinks.bits)
    }

    @Test("claim: pending → running is won once; running, completing and resolved cannot be claimed")
    func claim() {
        var word = Self.word()
        #expect(word.claim() == .won)
        #expect(word.phase == .running)
        #expect(word.claim() == .taken)
        word.phase = .completing
        #expect(word.claim() == .taken)
        word.phase = .resolved
        #expect(word.claim() == .resolved)
        #expect(word.phase == .resolved)
    }

    @Test("completion from pending owns the slot and says the work never started")
    func completionFromPending() {
        var word = Self.word()
        #expect(word.beginCompletion(cancelling: false) == .won(fromPending: true, ownsSlot: true))
        #expect(word.phase == .completing)
        #expect(!word.isCancelled)
        #expect(word.beginCompletion(cancelling: false) == .lost)
    }

    @Test("completion of running work by its runner owns the slot")
    func completionByTheRunner() {
        var word = Self.word(phase: .running)
        #expect(word.beginCompletion(cancelling: false) == .won(fromPending: false, ownsSlot: true))
        #expect(word.phase == .completing)
    }

    @Test("a cancellation of running work resolves without the slot, which stays the runner's")
    func cancellationOfRunningWork() {
        var word = Self.word(phase: .running)
        #expect(word.beginCompletion(cancelling: true) == .won(fromPending: false, ownsSlot: false))
        #expect(word.isCancelled)
        // The runner's own completion then loses.
        #expect(word.beginCompletion(cancelling: false) == .lost)
    }

    @Test(
        "the runner publishes straight from running, keeping every flag and field, and says whether it succeeded",
        arguments: [true, false])
    func runnerFinishes(succeeded: Bool) {
        var word = Self.word(.lazy, phase: .running)
        _ = word.addWaiter()
        _ = word.addCallbacks()
        let before = word
        #expect(word.finishRunning(succeeded: succeeded) == .published(previous: before))
        #expect(word.phase == .resolved && !word.isCancelled)
        #expect(word.hasSucceeded == succeeded)
        #expect(word.hasWaiters && word.hasCallbacks)
        #expect(word.kind == .lazy && word.line == 42)
        #expect(CreationSite.describe(number: word.fileNumber, line: word.line) == "Core/StateWordTests.swift:42")
        // Nothing moves a resolved word again.
        #expect(word.finishRunning(succeeded: true) == .cancelled)
        #expect(word.beginCompletion(cancelling: true) == .lost)
        #expect(word.hasSucceeded == succeeded)
    }

    @Test("a runner that finds its work cancelled publishes nothing")
    func runnerFindsCancellation() {
        for cancelledPhase in [StateWord.Phase.completing, .resolved] {
            var word = Self.word(phase: .running)
            _ = word.beginCompletion(cancelling: true)
            if cancelledPhase == .resolved { word.publishResolved() }
            let before = word
            #expect(word.finishRunning(succeeded: true) == .cancelled)
            #expect(word == before)
            #expect(!word.hasSucceeded)
        }
    }

    @Test("a cancellation of unstarted work owns the slot, to drop the work")
    func cancellationOfUnstartedWork() {
        var word = Self.word()
        #expect(word.beginCompletion(cancelling: true) == .won(fromPending: true, ownsSlot: true))
        #expect(word.isCancelled)
    }

    @Test("nothing completes a completing or resolved future")
    func lateCompletions() {
        for phase in [StateWord.Phase.completing, .resolved] {
            for cancelling in [false, true] {
                var word = Self.word(phase: phase)
                let before = word
                #expect(word.beginCompletion(cancelling: cancelling) == .lost)
                #expect(word == before)
            }
        }
    }

    @Test("publishing moves completing to resolved and keeps every flag and field")
    func publishing() {
        var word = Self.word(.background, phase: .running)
        _ = word.addWaiter()
        _ = word.addCallbacks()
        _ = word.beginCompletion(cancelling: true)
        word.publishResolved()
        #expect(word.phase == .resolved && word.isResolved)
        #expect(word.hasWaiters && word.hasCallbacks && word.isCancelled)
        #expect(word.kind == .background && word.line == 42)
    }

    @Test("the read path's one test accepts exactly a word resolved with a value")
    func readPathTest() {
        func passes(_ word: StateWord) -> Bool {
            ~word.raw & StateWord.resolvedWithValue == 0
        }
        var word = Self.word()
        #expect(!passes(word))
        _ = word.addWaiter()
        _ = word.beginCompletion(cancelling: false)
        #expect(!passes(word))
        word.publishResolved(succeeded: true)
        #expect(passes(word) && word.hasSucceeded && word.hasWaiters && word.line == 42)
        #expect(CreationSite.describe(number: word.fileNumber, line: word.line) == "Core/StateWordTests.swift:42")
        var failed = Self.word()
        _ = failed.beginCompletion(cancelling: false)
        failed.publishResolved(succeeded: false)
        #expect(!passes(failed) && failed.isResolved && !failed.isCancelled)
        var cancelled = Self.word()
        _ = cancelled.beginCompletion(cancelling: true)
        cancelled.publishResolved()
        #expect(!passes(cancelled) && cancelled.isResolved)
    }

    /// The publications by one add: from `pending` (a step's child that only its step resolves),
    /// from `running` (a runner whose future cannot be cancelled), from `completing` (the winner
    /// of `beginCompletion`). Each must give the word that the transitions give, flags kept.
    @Test(
        "a publication by one add makes the word resolved from any unresolved phase, keeping its flags",
        arguments: [StateWord.Phase.pending, .running, .completing])
    func publicationByOneAdd(from phase: StateWord.Phase) {
        for succeeded in [true, false] {
            var word = Self.word(.lazy, phase: phase)
            _ = word.addWaiter()
            _ = word.addCallbacks()
            word.raw &+= StateWord.publishIncrement(from: phase, succeeded: succeeded)
            #expect(word.phase == .resolved && word.isResolved && !word.isCancelled)
            #expect(word.hasWaiters && word.hasCallbacks && word.kind == .lazy && word.line == 42)
            #expect(word.hasSucceeded == succeeded)
            #expect((~word.raw & StateWord.resolvedWithValue == 0) == succeeded)
            // The word that the transitions make from the same phase.
            var viaTransitions = Self.word(.lazy, phase: phase)
            _ = viaTransitions.addWaiter()
            _ = viaTransitions.addCallbacks()
            switch phase {
            case .pending:
                _ = viaTransitions.beginCompletion(cancelling: false)
                viaTransitions.publishResolved(succeeded: succeeded)
            case .running:
                _ = viaTransitions.finishRunning(succeeded: succeeded)
            case .completing:
                viaTransitions.publishResolved(succeeded: succeeded)
            case .resolved:
                Issue.record("a resolved word is never published")
            }
            #expect(word == viaTransitions)
        }
    }

    @Test("waiters and callbacks register on any unresolved phase, and not on a resolved one")
    func registrations() {
        for phase in [StateWord.Phase.pending, .running, .completing] {
            var word = Self.word(phase: phase)
            #expect(word.addWaiter() == .registered && word.hasWaiters)
            #expect(word.addCallbacks() == .registered && word.hasCallbacks)
            #expect(word.phase == phase)
        }
        var resolved = Self.word(phase: .resolved)
        #expect(resolved.addWaiter() == .resolved && !resolved.hasWaiters)
        #expect(resolved.addCallbacks() == .resolved && !resolved.hasCallbacks)
    }

    @Test("the atomic transition applies a change once, and stores nothing for no change")
    func atomicTransition() {
        let atomic = Atomic<UInt64>(Self.word().raw)
        #expect(atomic.transition { $0.claim() } == .won)
        let running = atomic.load(ordering: .relaxed)
        #expect(StateWord(raw: running).phase == .running)
        #expect(atomic.transition { $0.claim() } == .taken)
        #expect(atomic.load(ordering: .relaxed) == running)
    }
}
