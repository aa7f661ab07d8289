/// A derived future's links to the futures it is computed from.
///
/// A derived future has no work of its own: callbacks on its sources resolve it. Made from a
/// lazy source, it registers those callbacks (its "connection") only when first demanded, so
/// that nothing runs, and nothing is kept alive, before someone asks. Readers follow the links
/// up to the futures with work and claim or start that work as their kind allows
/// (`_FutureCore.demand`), so a derived future never waits on work that nobody will run.
@usableFromInline
final class DerivedLinks: @unchecked Sendable {
    // @unchecked: every field is read and written only while the owning future's parking-lot
    // stripe is locked (`_FutureCore.withLinks`), or in the owner's deinit, when no other thread
    // can reach it.

    /// The futures the owner waits on now; emptied when it resolves.
    var upstreams: [_FutureCore]
    /// Registers the callbacks that resolve the owner; run once, then dropped. `nil` for a
    /// future connected when it was made.
    var connect: (@Sendable (_FutureCore) -> Void)?
    /// Whether a reader asked for the value without blocking, so that sources met later are
    /// started on a context rather than run by whichever thread resolves the current one.
    var demandedWithoutBlocking = false

    init(upstreams: [_FutureCore], connect: (@Sendable (_FutureCore) -> Void)?) {
        self.upstreams = upstreams
        self.connect = connect
    }

    /// Hands what the links hold to the release trampoline, so that freeing a long unread chain
    /// releases it link by link instead of one nested deinit per link.
    func releaseIteratively() {
        ReleaseTrampoline.release { list in
            if !upstreams.isEmpty {
                list.append(upstreams)
                upstreams = []
            }
            if let connect {
                list.append(connect)
                self.connect = nil
            }
        }
    }
}

extension _FutureCore {
    /// Runs `body` with this derived future's links, holding its stripe's lock; `nil` for a
    /// future that has none.
    final func withLinks<R>(_ body: (DerivedLinks) -> R) -> R? {
        guard case .sources(let links) = _links else { return nil }
        return ParkingLot.stripe(for: self).withLock { body(links) }
    }

    /// For a derived future: connects it to its sources if it is lazy and not yet connected, and
    /// returns the sources it currently waits on. `nil` for a future with work of its own.
    ///
    /// `withoutBlocking` marks the future as demanded by a reader that must not run work on its
    /// own thread (`get()`, `result(timeout:)`), so that sources it meets later are started on a
    /// context rather than run by whichever thread resolves its current source.
    final func upstreamsForDemand(withoutBlocking: Bool) -> [_FutureCore]? {
        let taken = withLinks { links -> ((@Sendable (_FutureCore) -> Void)?, [_FutureCore]) in
            defer { links.connect = nil }
            if withoutBlocking { links.demandedWithoutBlocking = true }
            return (links.connect, links.upstreams)
        }
        guard let (connect, upstreams) = taken else { return nil }
        connect?(self)
        return upstreams
    }

    /// Switches this derived future to wait on `source` (a `flatMap`'s inner future) and demands
    /// it.
    ///
    /// An eager future, or one a reader asked for without blocking, starts `source` without
    /// blocking. A lazy future gets here only after a blocking read connected it, on the thread
    /// that resolved its source: that thread demands `source` as that reader would, so a chain of
    /// lazy flatMaps runs on the reader's thread in one pass instead of one walk per link.
    ///
    /// A `source` that is this future, or reaches it through derived futures, would never
    /// resolve (Promises/A+ 2.3.1): this future fails with ``FutureCycleError`` instead, or traps
    /// when its error type cannot hold it (`_resolveWaitingOnItself()`).
    final func wait(on source: _FutureCore) {
        if source.reaches(self) {
            _resolveWaitingOnItself()
            return
        }
        let kind = _kind
        let startWithoutBlocking =
            withLinks { links -> Bool in
                links.upstreams = [source]
                return kind == .derived || links.demandedWithoutBlocking
            } ?? true
        if startWithoutBlocking {
            walkUpstream(from: source, withoutBlocking: true) { $0.startWithoutBlocking() }
        } else {
            walkUpstream(from: source, withoutBlocking: false) { _ = $0.demand(firstLook: true, waited: .zero) }
        }
        _wakeWaiters()
    }

    /// Makes `sources` the futures this derived future waits on now (a bounded `all`'s futures in
    /// flight), so that blocking readers demand them when they next look.
    ///
    /// Unlike `wait(on:)`, it starts nothing (the caller starts each source as it makes it) and
    /// wakes no parked reader: a wake-up per source cost a bounded `all` of trivial jobs more
    /// than the jobs, and a parked reader looks again anyway when it rechecks queued work.
    final func replaceUpstreams(with sources: [_FutureCore]) {
        _ = withLinks { links in
            if !_isResolved { links.upstreams = sources }
        }
    }

    /// Forgets the sources of a derived future that has resolved, so that it keeps nothing alive.
    final func dropUpstreams() {
        _ = withLinks { $0.upstreams = [] }
    }
}

/// Walks the graph above `start`, depth-first and each node once, without recursion (a chain
/// of derived futures can be 100,000 deep). Lazy derived futures met on the way are connected,
/// and marked as demanded without blocking if `withoutBlocking` (see `upstreamsForDemand`).
///
/// `stop` is asked after each future with work is visited: a reader whose own future has been
/// resolved by what it ran so far (the winner of a `first(of:)`) must not go on to run the rest.
func walkUpstream(
    from start: _FutureCore,
    withoutBlocking: Bool,
    stop: () -> Bool = { false },
    visitRoot: (_FutureCore) -> Void
) {
    var visited: Set<ObjectIdentifier> = []
    var stack: [_FutureCore] = [start]
    while let node = stack.popLast(), !stop() {
        guard !node._isResolved, visited.insert(ObjectIdentifier(node)).inserted else { continue }
        if let upstreams = node.upstreamsForDemand(withoutBlocking: withoutBlocking) {
            stack.append(contentsOf: upstreams)
        } else {
            visitRoot(node)
        }
    }
}
