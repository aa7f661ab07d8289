/// Walks the graph above `start`, depth-first and each node once, without recursion (a chain
/// of derived futures can be 100,000 deep). Lazy derived futures met on the way are connected,
/// and marked as demanded without blocking if `withoutBlocking` (see `upstreamsForDemand`).
/// `wakeUp`, from a reader about to park, is left in each derived future met.
///
/// `stop` is asked after each future with work is visited: a reader whose own future has been
/// resolved by what it ran so far (the winner of a `first(of:)`) must not go on to run the rest.
func walkUpstream(
    from start: _FutureCore,
    withoutBlocking: Bool,
    wakeUp: ParkedReaderWakeUp? = nil,
    stop: () -> Bool = { false },
    visitRoot: (_FutureCore) -> Void
) {
    // Up a chain first, while each future met has one source: no stack and no record of the
    // futures met, which cost three arrays (a third of a lazy future's `map` read). A future
    // cannot be met twice on a chain unless its links form a cycle, which `wait(on:)` refuses
    // (two racing `wait(on:)` calls could still close one): the chain's steps are bounded, so
    // that the walk ends whatever the links are.
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

/// How many futures `walkUpstream` follows one by one before it walks as in a graph. (Computed:
/// a global constant is initialized once, behind a check at each use.)
private var chainWalkLimit: Int { 4_096 }

/// The rest of `walkUpstream`, where futures may have several sources: depth-first from the
/// futures of `stack`, the last first, each future once.
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

/// A blocking reader's walk on from `sources`, the sources of a future whose readers start lazy
/// work on a context (`DerivedLinks.readersStartLazyWork`, a timeout's): unstarted lazy work met
/// beyond it is started there, not run on the reader's thread, so that the reader stays free to
/// leave at the deadline; everything else is visited as the walk visits it, so that queued work
/// the reader may claim (the work of the serial queue it runs on) is still claimed.
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

/// The sources a walk up the links goes on to from a derived future.
enum SourcesToWalk {
    /// One source: most derived futures.
    case one(_FutureCore)
    /// Any other number, in order.
    case several([_FutureCore])
}

/// The futures a walk up the links has met: a short list searched in order while the walk is
/// small, a set beyond. Most walks meet a handful of futures (a bounded `all` and its futures in
/// flight, at each look of its reader), and hashing each into a set cost more than the rest of
/// the walk.
struct VisitedFutures {
    private var few: [ObjectIdentifier] = []
    private var many: Set<ObjectIdentifier> = []

    /// How many futures the list holds before the walk moves them to the set.
    private static var listLimit: Int { 16 }

    /// Records `future`; whether it was not met before.
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
