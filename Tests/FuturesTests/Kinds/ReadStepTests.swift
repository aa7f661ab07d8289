import Testing

@testable import Futures

/// The one decision per kind: what a reader does about a future, from its state word alone, for
/// every phase and kind; the flags (waiters, callbacks, cancelled) never change it.
struct ReadStepTests {
    static func word(_ kind: FutureKind, phase: StateWord.Phase) -> StateWord {
        var word = StateWord.initial(kind: kind, links: .none, fileID: "Kinds/ReadStepTests.swift", line: 7)
        word.phase = phase
        return word
    }

    /// The table, written out: the step for an unstarted future of each kind.
    static let pendingSteps: [FutureKind: ReadStep] = [
        .promise: .wait,
        .lazy: .claimAndRun,
        .background: .askContext,
        .pinned: .wait,
        .derived: .walkUpstream,
        .lazyDerived: .walkUpstream,
    ]

    @Test(
        "unstarted: lazy work is run, background work asks its context, pinned work and promises wait, derived walk up",
        arguments: FutureKind.allCases)
    func pending(kind: FutureKind) throws {
        let expected = try #require(Self.pendingSteps[kind])
        #expect(ReadStep(Self.word(kind, phase: .pending)) == expected)
        #expect(ReadStep(pending: kind) == expected)
    }

    @Test(
        "whatever the kind, a resolved future is read, and a running or completing one is waited for",
        arguments: FutureKind.allCases)
    func startedOrResolved(kind: FutureKind) {
        #expect(ReadStep(Self.word(kind, phase: .resolved)) == .readOutcome)
        #expect(ReadStep(Self.word(kind, phase: .running)) == .waitForRunner)
        #expect(ReadStep(Self.word(kind, phase: .completing)) == .waitForRunner)
    }

    @Test("the flags never change the step", arguments: FutureKind.allCases)
    func flagsDoNotMatter(kind: FutureKind) {
        for phase in [StateWord.Phase.pending, .running, .completing, .resolved] {
            let plain = Self.word(kind, phase: phase)
            var flagged = plain
            flagged.raw |= StateWord.waitersBit | StateWord.callbacksBit
            #expect(ReadStep(flagged) == ReadStep(plain))
            flagged.raw &= ~StateWord.notCancelledBit
            #expect(ReadStep(flagged) == ReadStep(plain))
        }
    }
}
