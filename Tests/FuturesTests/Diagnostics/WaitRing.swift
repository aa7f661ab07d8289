import Foundation
import Testing

@testable import Futures

/// A ring of futures whose work waits for the next one, the last for the first: a wait cycle
/// across threads, built so that every work is running on a thread of its own before any of
/// them reads the next (so that no reader claims the next work and runs it on its own thread).
///
/// Each member is a future with work (`Member`), read by the previous member through an entry
/// (`Entry`): the work itself, or a future derived from it. The cycle, in wait order, is
/// work 0, entry 1 (if derived), work 1, …, work n-1, entry 0 (if derived), and work 0 again.
struct WaitRing: Sendable {
    /// Where a member's work runs.
    enum Member: String, Codable, Sendable, CustomStringConvertible {
        /// A `BackgroundFuture` on the global context.
        case global
        /// A `BackgroundFuture` on a context of the test's own threads (`ThreadPoolContext`).
        case pool
        /// A `LazyFuture`, run by a thread of its own that reads it.
        case lazy
        /// An agent's future: pinned to the agent's serial queue.
        case agent

        var description: String { rawValue }
    }

    /// How the previous member reads a member.
    enum Entry: String, Codable, Sendable, CustomStringConvertible {
        /// The work's future itself.
        case direct
        /// `work.map { $0 + 1 }`: a derived future (lazy, if the work is a `LazyFuture`).
        case map
        /// `cell.future.flatMap { $0 }`, where `cell` is a promise completed with the work's
        /// future: a future derived from a promise, waiting for the future the promise delivered.
        case promise

        var description: String { rawValue }
    }

    struct Spec: Codable, Sendable, CustomStringConvertible {
        let members: [Member]
        let entries: [Entry]

        init(_ pairs: [(Member, Entry)]) {
            members = pairs.map(\.0)
            entries = pairs.map(\.1)
        }

        /// How many futures the cycle has: one per member, one more per derived entry.
        var cycleLength: Int { members.count + entries.filter { $0 != .direct }.count }

        var description: String {
            zip(members, entries).map { "\($0)/\($1)" }.joined(separator: " → ")
        }
    }

    /// The members' futures and entries.
    let works: [Future<Int, Never>]
    let entries: [Future<Int, Never>]
    private let started: DispatchSemaphore
    private let gate: Gate
    private let lazyWorks: [Future<Int, Never>]

    /// Builds the ring; nothing waits for the next member until `close()`.
    init(_ spec: Spec) {
        let count = spec.members.count
        let started = DispatchSemaphore(value: 0)
        let gate = Gate()
        let entryBox = LockedBox<[Future<Int, Never>]>([])
        let pool = ThreadPoolContext(threadCount: max(1, spec.members.filter { $0 == .pool }.count))
        var works: [Future<Int, Never>] = []
        var lazyWorks: [Future<Int, Never>] = []
        for (index, member) in spec.members.enumerated() {
            let next = (index + 1) % count
            let work: @Sendable () -> Int = {
                started.signal()
                gate.wait()
                return readBlocking(entryBox.withLock { $0[next] }) + 1
            }
            switch member {
            case .global:
                works.append(BackgroundFuture(work))
            case .pool:
                works.append(BackgroundFuture(on: pool.context, work))
            case .lazy:
                let future = LazyFuture(work)
                lazyWorks.append(future)
                works.append(future)
            case .agent:
                works.append(Agent(0, label: "wait-ring.agent-\(index)").async { _ in work() })
            }
        }
        var entries: [Future<Int, Never>] = []
        for (work, entry) in zip(works, spec.entries) {
            switch entry {
            case .direct:
                entries.append(work)
            case .map:
                entries.append(work.map { $0 + 1 })
            case .promise:
                let cell = Promise<Future<Int, Never>, Never>()
                cell.succeed(work)
                entries.append(cell.future.flatMap { $0 })
            }
        }
        entryBox.withLock { $0 = entries }
        self.works = works
        self.entries = entries
        self.started = started
        self.gate = gate
        self.lazyWorks = lazyWorks
    }

    /// Starts the lazy members on threads of their own, waits until every member's work runs,
    /// then lets them all read the next member.
    func close() {
        for future in lazyWorks {
            Thread.detachNewThread { _ = readBlocking(future) }
        }
        for _ in works { started.wait() }
        gate.open()
    }

    /// The names of the cycle's futures in wait order, from work 0, as the trap message spells
    /// them ("BackgroundFuture<Int> created at FuturesTests/WaitRing.swift:90").
    var cycleNames: [String] {
        var names: [String] = []
        for index in works.indices {
            names.append(WaitCycle.name(works[index]))
            let next = (index + 1) % works.count
            if entries[next] !== works[next] { names.append(WaitCycle.name(entries[next])) }
        }
        return names
    }

    /// Writes the names to standard output, one a line after "cycle member: ", for the parent
    /// process of an exit test to compare with the trap message.
    func printCycleNames() {
        var text = ""
        for name in cycleNames { text += "cycle member: \(name)\n" }
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}

/// Checks an exit test's output: the trap message names a cycle of `length` futures whose
/// names, in order, are a rotation of the names the child printed.
func expectCycleReported(
    _ exit: ExitTest.Result?, length: Int, sourceLocation: SourceLocation = #_sourceLocation
) {
    let output = String(decoding: exit?.standardOutputContent ?? [], as: UTF8.self)
    let errors = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
    let expected = output.split(separator: "\n").compactMap { line -> String? in
        line.hasPrefix("cycle member: ") ? String(line.dropFirst("cycle member: ".count)) : nil
    }
    #expect(expected.count == length, "the child named \(expected.count) futures", sourceLocation: sourceLocation)
    #expect(errors.contains("wait cycle of \(length) futures"), "\(errors)", sourceLocation: sourceLocation)
    let named = cycleSteps(in: errors)
    #expect(
        named.count == length, "the message names \(named.count) futures: \(errors)", sourceLocation: sourceLocation)
    let rotations = expected.indices.map { Array(expected[$0...] + expected[..<$0]) }
    #expect(
        rotations.contains(named), "named \(named), expected a rotation of \(expected)", sourceLocation: sourceLocation)
}

/// The futures a cycle message names, in order: the numbered lines, without the last one (the
/// first future again).
func cycleSteps(in message: String) -> [String] {
    var steps: [String] = []
    for line in message.split(separator: "\n") {
        let trimmed = line.drop { $0 == " " }
        guard let dot = trimmed.firstIndex(of: "."), Int(trimmed[..<dot]) != nil else { continue }
        let rest = trimmed[trimmed.index(dot, offsetBy: 2)...]
        if rest.hasSuffix(" again.") { continue }
        // "Future<Int> (derived, lazy) created at File.swift:12, derived from": the name ends at
        // the first comma after the creation site.
        guard let site = rest.range(of: " created at ") else { continue }
        let end = rest[site.upperBound...].firstIndex(of: ",") ?? rest.endIndex
        steps.append(String(rest[..<end]))
    }
    return steps
}
