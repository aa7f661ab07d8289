/// Walks the graph above `start` depth-first, each node once, without recursion (chains can be
/// 100,000 deep), connecting lazy derived futures met (demanded without blocking if
/// `withoutBlocking`) and leaving `wakeUp` in each derived future. `stop` is asked after each
/// visit: a reader whose future resolved from what it ran (a `first(of:)`) must not run the rest.
func walkUpstream(
    from start: _FutureCore,
    withoutBlocking: Bool,
    wakeUp: ParkedReaderWakeUp? = nil,
    stop: () -> Bool = { false },
    visitRoot: (_FutureCore) -> Void
) {
    // A chain first, while each future has one source: no stack or visited set, which a lazy
    // `map` read would otherwise pay. `wait(on:)` refuses cycles, but two racing calls could
    // close one: the step bound makes the walk end anyway.
    var node = start
    for _ in 0..<chainWalkLimit {
        if stop() || node._isResolved { return }
        let sources = node.upstreamsForDemand(withoutBlocking: withoutBlocking, wakeUp: wakeUp)
        if let sources, !withoutBlocking, node.readersStartLazyWork {
            walkStartingLazyWork(from: sources, wakeUp: wakeUp, stop: stop, visitRoot: visitRoot)
            return
        }
        switch sources {
        case nil:
            visitRoot(node)
            return
        case .one(let source)?:
            node = source
        case .several(let sources)?:
            walkGraph(from: sources, withoutBlocking: withoutBlocking, wakeUp: wakeUp, stop: stop, visitRoot: visitRoot)
            return
        }
    }
    walkGraph(from: [node], withoutBlocking: withoutBlocking, wakeUp: wakeUp, stop: stop, visitRoot: visitRoot)
}

/// Futures followed one by one before walking as a graph. (Computed: a global is lazily
/// initialized, checked at each use.)
private var chainWalkLimit: Int { 4_096 }

/// `walkUpstream` where futures may have several sources: depth-first from `stack`, each once.
private func walkGraph(
    from stack: [_FutureCore],
    withoutBlocking: Bool,
    wakeUp: ParkedReaderWakeUp?,
    stop: () -> Bool,
    visitRoot: (_FutureCore) -> Void
) {
    var visited = VisitedFutures()
    var stack = stack
    while let node = stack.popLast(), !stop() {
        guard !node._isResolved, visited.insert(node) else { continue }
        let sources = node.upstreamsForDemand(withoutBlocking: withoutBlocking, wakeUp: wakeUp)
        if let sources, !withoutBlocking, node.readersStartLazyWork {
            walkStartingLazyWork(from: sources, wakeUp: wakeUp, stop: stop, visitRoot: visitRoot)
            continue
        }
        switch sources {
        case nil: visitRoot(node)
        case .one(let source)?: stack.append(source)
        case .several(let sources)?: stack.append(contentsOf: sources)
        }
    }
}

/// A blocking reader's walk beyond a future whose readers start lazy work on a context (a
/// timeout's): unstarted lazy work is started there so the reader can leave at the deadline;
/// everything else is visited as usual, so claimable queued work is still claimed.
private func walkStartingLazyWork(
    from sources: SourcesToWalk,
    wakeUp: ParkedReaderWakeUp?,
    stop: () -> Bool,
    visitRoot: (_FutureCore) -> Void
) {
    let start: [_FutureCore]
    switch sources {
    case .one(let source): start = [source]
    case .several(let several): start = several
    }
    walkGraph(from: start, withoutBlocking: false, wakeUp: wakeUp, stop: stop) { root in
        if ReadStep(root._word) == .claimAndRun {
            root.startWithoutBlocking()
        } else {
            visitRoot(root)
        }
    }
}

/// The sources a walk goes on to from a derived future.
enum SourcesToWalk {
    case one(_FutureCore)
    case several([_FutureCore])
}

/// The futures a walk has met: a short list searched in order, a set beyond (hashing cost more
/// than the rest of a small walk).
struct VisitedFutures {
    private var few: [ObjectIdentifier] = []
    private var many: Set<ObjectIdentifier> = []

    private static var listLimit: Int { 16 }

    mutating func insert(_ future: _FutureCore) -> Bool {
        let identity = ObjectIdentifier(future)
        if few.count < Self.listLimit {
            if few.contains(identity) { return false }
            few.append(identity)
            return true
        }
        if many.isEmpty { many = Set(few) }
        return many.insert(identity).inserted
    }
}
