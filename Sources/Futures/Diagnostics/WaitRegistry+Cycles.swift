/// A cycle of waits: futures each of which waits for the next, the last for the first.
struct WaitCycle {
    enum Link {
        /// A derived future with one source.
        case derived
        case workOnThisThread
        case workOnParkedThread(isMainThread: Bool)
    }

    struct Step {
        let future: _FutureCore
        let link: Link
    }

    let steps: [Step]
    /// Set when the parking thread's own work is not in the cycle: it waits for a cycle others closed.
    let entry: _FutureCore?

    var message: String {
        var lines = [
            "Futures found a wait cycle of \(steps.count) futures, each waiting for the next and the last "
                + "for the first: none of them can ever resolve, and every thread that waits for one waits forever."
        ]
        if let entry {
            lines.append("This thread was about to wait for \(Self.name(entry)), which waits for this cycle:")
        }
        for (index, step) in steps.enumerated() {
            let name = "  \(index + 1). \(Self.name(step.future))"
            switch step.link {
            case .derived: lines.append("\(name), derived from")
            case .workOnThisThread: lines.append("\(name), whose work, on this thread, waits for")
            case .workOnParkedThread(let isMainThread):
                let thread = isMainThread ? "the main thread" : "another thread"
                lines.append("\(name), whose work, on \(thread), waits for")
            }
        }
        if let first = steps.first { lines.append("  1. \(Self.name(first.future)) again.") }
        lines.append(
            "Break the cycle: the work of a future must not wait, directly or through other futures, for a future "
                + "that waits for it. Compose with map or flatMap instead of reading inside the work, or give "
                + "one of the reads a deadline with result(timeout:).")
        return lines.joined(separator: "\n")
    }

    /// "BackgroundFuture<Int> created at App/Loader.swift:42".
    static func name(_ future: _FutureCore) -> String { "\(future._description) created at \(future._creationSite)" }
}

extension WaitRegistry {
    /// The cycle `parking` would close, if any; under the table's lock, before registering. It
    /// follows the one future each waits for:
    /// - resolved or completing: no cycle;
    /// - pending derived with exactly one source: that source (with several it may resolve from any);
    /// - any other pending: no cycle (someone else runs or completes it);
    /// - running: the thread running it, if it is this one or parked without a deadline, through its
    ///   nested futures to what that thread waits for; otherwise no cycle.
    ///
    /// Reaching a future twice closes a cycle. Each step is a wait that cannot end before the next
    /// future resolves, and registered threads resolve nothing while the lock is held: the cycle is
    /// real (only a cancellation, which nobody waits for, could break it).
    static func findCycle(parking: Parked, in table: Table) -> WaitCycle? {
        var steps: [WaitCycle.Step] = []
        var positions: [ObjectIdentifier: Int] = [:]
        var next = parking.future
        func visit(_ future: _FutureCore, _ link: WaitCycle.Link) -> WaitCycle? {
            if let position = positions[ObjectIdentifier(future)] {
                return WaitCycle(
                    steps: Array(steps[position...]), entry: position == 0 ? nil : parking.future)
            }
            positions[ObjectIdentifier(future)] = steps.count
            steps.append(WaitCycle.Step(future: future, link: link))
            return nil
        }
        while true {
            let word = next._word
            switch word.phase {
            case .resolved, .completing:
                return nil
            case .pending:
                guard word.kind.isDerived, let source = next.withLinks({ $0.soleUpstream }) ?? nil else {
                    return nil
                }
                if let cycle = visit(next, .derived) { return cycle }
                next = source
            case .running:
                let chain: [_FutureCore]
                let waitsFor: _FutureCore
                let link: WaitCycle.Link
                if parking.running.contains(where: { $0 === next }) {
                    (chain, waitsFor, link) = (parking.running, parking.future, .workOnThisThread)
                } else if let thread = table.runners[ObjectIdentifier(next)], let runner = table.parked[thread],
                    runner.waitsForever
                {
                    (chain, waitsFor, link) = (
                        runner.running, runner.future, .workOnParkedThread(isMainThread: runner.isMainThread)
                    )
                } else {
                    return nil
                }
                guard let start = chain.firstIndex(where: { $0 === next }) else { return nil }
                for future in chain[start...] {
                    if let cycle = visit(future, link) { return cycle }
                }
                next = waitsFor
            }
        }
    }
}
