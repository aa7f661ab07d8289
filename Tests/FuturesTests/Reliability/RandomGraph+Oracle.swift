@testable import Futures

/// What one checked run saw, for the figures.
struct GraphRunSummary {
    var values = 0
    var failures = 0
    var cancellations = 0
    var racyCancellationsWon = 0
    var racyCancellationsLost = 0
}

extension RandomGraph {
    /// The sequential oracle: computes each node's expected outcome from its parents' in index
    /// order (parents always come first), and checks what the run observed against it.
    ///
    /// - Parameter observations: What each reader saw, one array per reader, indexed by node.
    /// - Returns: One line per problem found, and a summary of the outcomes.
    func check(_ graph: BuiltGraph, observations: [[Outcome]]) -> (problems: [String], summary: GraphRunSummary) {
        var problems: [String] = []
        var summary = GraphRunSummary()
        var expected: [Outcome] = []
        expected.reserveCapacity(nodes.count)

        for (index, node) in nodes.enumerated() {
            func problem(_ text: String) { problems.append("node \(index) (\(node.kind)): \(text)") }

            // Every reader, every callback and every later look agree.
            let seen = observations[0][index]
            for (reader, observed) in observations.enumerated() where observed[index] != seen {
                problem("reader 0 saw \(seen), reader \(reader) saw \(observed[index])")
            }
            if graph.callbackRuns[index] != 1 {
                problem("its onComplete callback ran \(graph.callbackRuns[index]) times")
            } else if Outcome(code: graph.callbackOutcomes[index]) != seen {
                problem("its callback got \(Outcome(code: graph.callbackOutcomes[index])), readers saw \(seen)")
            }
            let future = graph.futures[index]
            if future.peek.map(Outcome.init(_:)) != seen { problem("peek gives \(String(describing: future.peek))") }
            if future.isCancelled != (seen == .cancelled) {
                problem("isCancelled is \(future.isCancelled) for \(seen)")
            }

            // The outcome the oracle allows.
            let natural = naturalOutcome(of: index, expected: expected)
            let allowed: [Outcome]
            let cancellation = cancellation(of: index)
            if case .first(let parents) = node.kind {
                allowed = parents.map { expected[$0] }
            } else if case .firstSuccess(let parents) = node.kind {
                // The first value to come; if none comes, the failure that came last.
                let values = parents.map { expected[$0] }.filter { if case .value = $0 { true } else { false } }
                allowed = values.isEmpty ? parents.map { expected[$0] } : values
            } else if case .fold(let parents) = node.kind,
                parents.contains(where: { if case .value = expected[$0] { false } else { true } })
            {
                // A fold fails fast: with the first of its sources to fail, whichever that was.
                allowed = parents.map { expected[$0] }.filter { if case .value = $0 { false } else { true } }
            } else if isCancelledBeforeAnyRead(index) {
                allowed = [.cancelled]
            } else if cancellation != .never {
                allowed = [natural, .cancelled]
                if seen == .cancelled { summary.racyCancellationsWon += 1 } else { summary.racyCancellationsLost += 1 }
            } else {
                allowed = [natural]
            }
            if allowed.contains(seen) {
                expected.append(seen)
            } else {
                problem("saw \(seen), the oracle allows \(allowed)")
                expected.append(allowed[0])
            }
            switch seen {
            case .value: summary.values += 1
            case .cancelled: summary.cancellations += 1
            default: summary.failures += 1
            }

            // Exactly once: work, closures, and who won a cancellation or a completion.
            let cancelWon = graph.cancelWon[index] == 1
            if cancellation != .never, cancelWon != (seen == .cancelled) {
                problem("cancel() returned \(cancelWon) but readers saw \(seen)")
            }
            switch node.kind {
            case .leaf(.promise, _):
                let completed = graph.completionWon[index] == 1
                if completed == cancelWon { problem("cancel() returned \(cancelWon) and completion \(completed)") }
            case .leaf, .readingWork:
                let runs = graph.workRuns[index]
                if seen == .cancelled ? runs > (isCancelledBeforeAnyRead(index) ? 0 : 1) : runs != 1 {
                    problem("its work ran \(runs) times for \(seen)")
                }
            case .map(let parent), .flatMap(let parent, _):
                let expectedRuns = if case .value = expected[parent] { 1 } else { 0 }
                if graph.transformRuns[index] != expectedRuns {
                    problem("its transform ran \(graph.transformRuns[index]) times, parent \(expected[parent])")
                }
            case .mapError(let parent), .recover(let parent):
                let expectedRuns = if case .value = expected[parent] { 0 } else { 1 }
                if graph.transformRuns[index] != expectedRuns {
                    problem("its transform ran \(graph.transformRuns[index]) times, parent \(expected[parent])")
                }
            case .flatMapError(let parent, _):
                let expectedRuns = if case .value = expected[parent] { 0 } else { 1 }
                if graph.transformRuns[index] != expectedRuns {
                    problem("its transform ran \(graph.transformRuns[index]) times, parent \(expected[parent])")
                }
            case .boundedAll(let parents, _):
                // Every item made once when it succeeds; never more items than there are.
                let calls = graph.extra.makeCalls[index]
                if case .value = seen, calls != parents.count { problem("its closure ran \(calls) times") }
                if calls > parents.count { problem("its closure ran \(calls) times for \(parents.count) items") }
            case .fold(let parents):
                let steps = graph.transformRuns[index]
                if case .value = seen, steps != parents.count - 1 { problem("its combine ran \(steps) times") }
                if steps > parents.count - 1 { problem("its combine ran \(steps) times") }
            case .zip, .all, .first, .allSettled, .firstSuccess:
                break
            }
        }
        problems += extraProblems(graph)
        return (problems, summary)
    }

    /// The promises checked across the graph: bounds and order of bounded `all`s, the order of
    /// callbacks on one serial context, and laziness.
    private func extraProblems(_ graph: BuiltGraph) -> [String] {
        var problems: [String] = []
        let extra = graph.extra
        if extra.boundViolations[0] != 0 {
            problems.append(
                "bounded alls called their closure out of order or beyond the bound \(extra.boundViolations[0]) times")
        }
        let outOfOrder = nodes.indices.filter { extra.orderViolations[$0] == 1 && extra.addedBeforeResolution[$0] == 1 }
        if !outOfOrder.isEmpty {
            problems.append(
                "nodes \(outOfOrder.prefix(10)): a callback ran before one added earlier on the same serial context")
        }
        if extra.unreadWorkRuns[0] != 0 {
            problems.append("the work of lazy futures nobody read ran \(extra.unreadWorkRuns[0]) times")
        }
        let resolved = extra.unreadDerived.indices.filter { extra.unreadDerived[$0].isResolved }
        if !resolved.isEmpty {
            problems.append(
                "unread lazy futures resolved: \(resolved.prefix(10)) of \(extra.unreadDerived.count)"
            )
        }
        return problems
    }

    /// The outcome of `index` computed from its parents' expected outcomes, without futures.
    private func naturalOutcome(of index: Int, expected: [Outcome]) -> Outcome {
        switch nodes[index].kind {
        case .leaf:
            return leafStep(index)
        case .readingWork(_, let parents, _):
            return readingStep(index, parents.map { expected[$0] })
        case .map(let parent):
            guard case .value(let value) = expected[parent] else { return expected[parent] }
            return mapStep(index, value)
        case .flatMap(let parent, _):
            guard case .value(let value) = expected[parent] else { return expected[parent] }
            return flatMapTransformStep(index, value) ?? flatMapInnerStep(index, value)
        case .mapError(let parent):
            return mapErrorStep(expected[parent])
        case .recover(let parent):
            return recoverStep(index, expected[parent])
        case .zip(let parents), .all(let parents):
            return combineStep(index, parents.map { expected[$0] })
        case .first(let parents), .firstSuccess(let parents):
            return expected[parents[0]]
        case .flatMapError(let parent, _):
            if case .value = expected[parent] { return expected[parent] }
            return flatMapErrorStep(index, expected[parent])
        case .allSettled(let parents):
            return settledStep(index, parents.map { expected[$0] })
        case .boundedAll(let parents, _):
            return combineStep(index, parents.map { expected[$0] })
        case .fold(let parents):
            var total = 0
            for (position, parent) in parents.enumerated() {
                guard case .value(let value) = expected[parent] else { return expected[parent] }
                total = position == 0 ? value : Self.foldStep(total, value)
            }
            return .value(total)
        }
    }
}
