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
            case .zip, .all, .first:
                break
            }
        }
        return (problems, summary)
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
        case .first(let parents):
            return expected[parents[0]]
        }
    }
}
