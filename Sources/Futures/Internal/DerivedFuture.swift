/// A future computed from other futures: by `map`, `flatMap`, `zip`, `all` and the rest.
///
/// It has no work of its own; callbacks on its sources resolve it. It keeps its sources' kind:
/// derived from a lazy future it is lazy, and registers those callbacks (its "connection") only
/// when first read, so that nothing runs, and nothing is kept alive, before someone asks.
/// Otherwise it connects at once and resolves as soon as its sources do. Reads forward demand
/// to the sources: a blocking reader walks up to the futures with work and claims or starts it
/// as their kind allows, so a derived future never waits on work that nobody will run.
final class DerivedFuture<Value: Sendable, Failure: Error>: Future<Value, Failure>, @unchecked Sendable {
    // @unchecked: its own state is inside `links`, a lock box; the rest is covered by `Future`'s proof.

    struct Links {
        /// The futures this one waits on now; emptied when it resolves.
        var upstreams: [any FutureNode]
        /// Registers the callbacks that resolve this future; run once, then dropped.
        var connect: (@Sendable (DerivedFuture<Value, Failure>) -> Void)?
        /// Whether a reader asked for the value without blocking (so new sources must be started).
        var startedWithoutBlocking = false
    }

    let isLazy: Bool
    let links: LockedBox<Links>

    init(
        lazy: Bool,
        upstreams: [any FutureNode],
        fileID: StaticString,
        line: UInt,
        connect: @escaping @Sendable (DerivedFuture<Value, Failure>) -> Void
    ) {
        isLazy = lazy
        links = LockedBox(Links(upstreams: upstreams, connect: lazy ? connect : nil))
        super.init(work: nil, fileID: fileID, line: line)
        if !lazy { connect(self) }
    }

    deinit {
        ReleaseTrampoline.release { list in
            links.withLock { links in
                if !links.upstreams.isEmpty {
                    list.append(links.upstreams)
                    links.upstreams = []
                }
                if let connect = links.connect {
                    list.append(connect)
                    links.connect = nil
                }
            }
        }
    }

    override var _kindName: String { isLazy ? "LazyFuture" : "Future" }

    override var _isLazyKind: Bool { isLazy }

    /// Resolves with the sources' outcome; a cancelled source makes a cancellable future cancelled.
    @discardableResult
    func resolve(with result: Result<Value, Failure>, sourceCancelled: Bool = false) -> Bool {
        let resolved = _complete(with: result, cancelling: sourceCancelled && Failure.self == (any Error).self)
        if resolved { links.withLock { $0.upstreams = [] } }
        return resolved
    }

    /// Resolves with what `body` returns, or with the error it throws.
    func resolve(catching body: () throws(Failure) -> Value) {
        do throws(Failure) {
            resolve(with: .success(try body()))
        } catch {
            resolve(with: .failure(error))
        }
    }

    /// Switches the future to wait on `source` (a `flatMap`'s inner future) and demands it.
    ///
    /// An eager future, or one a reader asked for without blocking, starts `source` without
    /// blocking. A lazy future gets here only after a blocking read connected it, on the thread
    /// that resolved its source: that thread demands `source` as that reader would, so a chain
    /// of lazy flatMaps runs on the reader's thread in one pass instead of one walk per link.
    func wait(on source: any FutureNode) {
        let startWithoutBlocking = links.withLock { links -> Bool in
            links.upstreams = [source]
            return !isLazy || links.startedWithoutBlocking
        }
        if startWithoutBlocking {
            walkUpstream(from: source, withoutBlocking: true) { $0._startWithoutBlocking() }
        } else {
            walkUpstream(from: source, withoutBlocking: false) { _ = $0._demandAsRoot(firstLook: true, waited: .zero) }
        }
        _wakeWaiters()
    }

    override func _upstreamsForDemand(withoutBlocking: Bool) -> [any FutureNode]? {
        let (connect, upstreams) = links.withLock { links in
            defer { links.connect = nil }
            if withoutBlocking { links.startedWithoutBlocking = true }
            return (links.connect, links.upstreams)
        }
        connect?(self)
        return upstreams
    }

    override func _pendingBlockingRead(firstLook: Bool, waited: Duration) -> PendingReadAction {
        var claimed = false
        var recheck: Duration?
        walkUpstream(from: self, withoutBlocking: false, stop: { isResolved }) { root in
            switch root._demandAsRoot(firstLook: firstLook, waited: waited) {
            case .claimed:
                claimed = true
            case .park(let interval?):
                recheck = min(recheck ?? interval, interval)
            case .park(nil):
                break
            }
        }
        return claimed ? .claimed : .park(recheckAfter: recheck)
    }

    override func _startWithoutBlocking() {
        walkUpstream(from: self, withoutBlocking: true) { $0._startWithoutBlocking() }
    }
}
