/// A derived future's link to one source: strong or weak by the source's kind.
///
/// A source keeps its derived futures alive through their callbacks (a `map` with only an
/// `onSuccess` must still run), so a strong link back made a cycle: a dropped pending promise and
/// its `map` were never freed. So only sources nothing else keeps until they can resolve are held
/// strongly: lazy futures and what derives from them, and background futures on Futures' own
/// pools, which always resolve and hand over the cycle-closing callback
/// (`isHeldStronglyByDerivedFutures`). The rest are watched (`WatchedSource`): whatever will
/// resolve them holds them, and once nothing can, nothing keeps them or what waits on them.
struct Upstream {
    private enum Link {
        case owned(_FutureCore)
        case watched(WatchedSource)
        /// A source no reader can find work above: counted, not referenced.
        case unlinked
    }

    private var link: Link?

    /// A link to `future`, strong or weak by its kind.
    init(_ future: _FutureCore) {
        link = future.isHeldStronglyByDerivedFutures ? .owned(future) : .watched(WatchedSource(future))
    }

    /// A link if a reader may find work above `future`, else an unlinked place (promise, pinned,
    /// derived leading to no work), sparing a weak reference's side table. Still counts as a
    /// source (`DerivedLinks.soleUpstream`).
    init(ifLeadingToWork future: _FutureCore) {
        let leadsToWork =
            switch future._kind {
            case .lazy, .lazyDerived, .background: true
            case .derived: future._withLinksBorrowed({ $0.leadsToWork }) ?? false
            case .promise, .pinned: false
            }
        if leadsToWork {
            self.init(future)
        } else {
            self.init(unlinked: ())
        }
    }

    private init(unlinked: Void) { link = .unlinked }

    /// A strong link whatever the kind (moved from one already strong: `takePaired`).
    init(holding future: _FutureCore) { link = .owned(future) }

    /// An empty link: a free slot (`replaceSource(inSlot:with:)`).
    init() { link = nil }

    /// The source, unless freed.
    var future: _FutureCore? {
        switch link {
        case .owned(let future)?: future
        case .watched(let watched)?: watched.future
        case .unlinked?, nil: nil
        }
    }

    /// Whether the source is held, strongly or weakly.
    var isLinked: Bool {
        switch link {
        case .owned?, .watched?: true
        case .unlinked?, nil: false
        }
    }

    var isOwned: Bool {
        if case .owned? = link { return true }
        return false
    }

    /// Empties the link; returns the strongly held source, if any (a watched one frees nothing).
    mutating func take() -> _FutureCore? {
        switch link.take() {
        case .owned(let future)?: future
        case .watched?, .unlinked?, nil: nil
        }
    }
}

/// Something a derived future undoes once it is decided.
enum Detachment {
    /// A callback it parked on a source.
    case callback(CallbackRegistration)
    /// A timeout's timer, which holds the future until it fires.
    case timer(DelayedWork.Timer)
    /// Run once decided (a fold cancels its chain).
    case action(@Sendable () -> Void)

    func detach() {
        switch self {
        case .callback(let registration): _FutureCore.removeResolutionCallback(registration)
        case .timer(let timer): timer.cancel()
        case .action(let action): action()
        }
    }
}
