/// A cycle of waits: futures each of which waits for the next, the last for the first.
struct WaitCycle {
    /// How a future of the cycle waits for the next one.
    enum Link {
        /// A derived future with one source: it resolves only when that source does.
        case derived
        /// Running work, on the thread that is about to park, that waits for the next future.
        case workOnThisThread
        /// Running work on a thread parked without a deadline, that waits for the next future.
        case workOnParkedThread(isMainThread: Bool)
    }

    struct Step {
        let future: _FutureCore
        let link: Link
    }

    /// The futures of the cycle, in order.
    let steps: [Step]
    /// The future the parking thread waits for, when that thread's own work is not in the cycle:
    /// it waits for a cycle that other threads already closed.
    let entry: _FutureCore?

    /// The trap message: "cycle", then every future with its kind and creation site, in order.
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
    static func name(_ future: _FutureCore) -> String {
        "\(future._description) created at \(future._creationSite)"
    }
}

extension WaitRegistry {
    /// The cycle that `parking` would close by waiting, if any; called under the table's lock,
    /// before `parking` is registered.
    ///
    /// It follows the one future each future waits for, from the one `parking` waits for:
    /// - a resolved or completing future ends the search: no cycle;
    /// - a pending derived future with exactly one source leads to that source (with several, it
    ///   may resolve from any of them, as `first(of:)` does: the search ends);
    /// - any other pending future ends the search: queued background work runs on its context or
    ///   a reader claims it, lazy work is run by its reader, and nothing tells the engine who will
    ///   complete a promise;
    /// - a running future leads to the thread that runs its work, if that thread is this one or is
    ///   parked without a deadline, through the futures nested inside it on that thread, to what
    ///   that thread waits for. Running work whose thread is not parked so ends the search.
    ///
    /// Reaching a future a second time closes a cycle. Every step is a wait that cannot end until
    /// the next future resolves, and the registered threads cannot resolve anything while the lock
    /// is held, so the cycle is real, not a view of moments that never coexisted: the one way out
    /// would be another thread cancelling one of its futures, which is not waited for.
    static func findCycle(parking: Parked, in table: Table) -> WaitCycle? {
        var steps: [WaitCycle.Step] = []
        var positions: [ObjectIdentifier: Int] = [:]
        var next = parking.future
        // Appends `future` to the path; returns the cycle if it is on the path already.
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
