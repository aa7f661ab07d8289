/// A future seen as a node of the graph that demand flows up: a derived future's readers must
/// be able to start (or claim) the work of the futures it is derived from.
protocol FutureNode: AnyObject, Sendable {
    var isResolved: Bool { get }
    /// Whether nothing runs until someone reads: lazy futures and what is derived from them.
    var _isLazyKind: Bool { get }
    /// For a derived future: connects it to its sources if it is lazy and not yet connected,
    /// and returns the sources it currently waits on. `nil` for a future with work of its own.
    /// `withoutBlocking` marks the future as demanded by a reader that must not run work on its
    /// own thread (`get()`, `result(timeout:)`), so that sources it meets later are started on
    /// the global context rather than run by whichever thread resolves its current source.
    func _upstreamsForDemand(withoutBlocking: Bool) -> [any FutureNode]?
    /// For a future with work of its own: what a blocking reader does about it now.
    func _demandAsRoot(firstLook: Bool, waited: Duration) -> PendingReadAction
    /// Starts the work without blocking the caller (lazy work goes to the global context).
    func _startWithoutBlocking()
    /// The failure of a resolved future, if it failed.
    var _erasedFailure: (any Error)? { get }
    /// Whether the future was resolved by cancellation.
    var _isCancelledNode: Bool { get }
    /// Calls `body` once the future resolves (see `Future._onResolution`).
    func _whenResolvedErased(_ body: @escaping @Sendable () -> Void)
}

extension Future: FutureNode {
    var _erasedFailure: (any Error)? {
        if case .failure(let error)? = _resolvedResult { return error }
        return nil
    }

    var _isCancelledNode: Bool { isCancelledWhileRunning }

    func _whenResolvedErased(_ body: @escaping @Sendable () -> Void) {
        _onResolution { _ in body() }
    }

    func _demandAsRoot(firstLook: Bool, waited: Duration) -> PendingReadAction {
        let word = _state.load(ordering: .acquiring)
        switch StateWord.phase(word) {
        case StateWord.pending:
            return _pendingBlockingRead(firstLook: firstLook, waited: waited)
        case StateWord.resolved:
            return .claimed
        default:
            _trapIfRecursive(word)
            return .park(recheckAfter: nil)
        }
    }
}

/// Walks the graph above `start`, depth-first and each node once, without recursion (a chain
/// of derived futures can be 10,000 deep). Lazy derived futures met on the way are connected,
/// and marked as demanded without blocking if `withoutBlocking` (see `_upstreamsForDemand`).
///
/// `stop` is asked after each future with work is visited: a reader whose own future has been
/// resolved by what it ran so far (the winner of a `first(of:)`) must not go on to run the rest.
func walkUpstream(
    from start: any FutureNode,
    withoutBlocking: Bool,
    stop: () -> Bool = { false },
    visitRoot: (any FutureNode) -> Void
) {
    var visited: Set<ObjectIdentifier> = []
    var stack: [any FutureNode] = [start]
    while let node = stack.popLast(), !stop() {
        guard !node.isResolved, visited.insert(ObjectIdentifier(node)).inserted else { continue }
        if let upstreams = node._upstreamsForDemand(withoutBlocking: withoutBlocking) {
            stack.append(contentsOf: upstreams)
        } else {
            visitRoot(node)
        }
    }
}
