/// A derived future's link to one source.
///
/// Why not always a strong reference: a source keeps the futures derived from it alive through
/// the callbacks it holds for them (it must: a `map` with an `onSuccess` and no other reference
/// still has to run when its source resolves), and a derived future that also held its source
/// strongly made a cycle through the parking lot. A promise and a `map` of it, both dropped while
/// pending, were never freed, nor a chain of maps on it. So a derived future holds strongly only
/// the sources that nothing else keeps until they can resolve: lazy futures, and futures derived
/// from them, whose work runs only when a reader asks. The others are held by whatever will
/// resolve them while they still can (a promise by its holder, a background or pinned future by
/// its context's queue until its work runs, an eager derived future by its own sources'
/// callbacks); a weak link to them (`WatchedSource`) is enough for the readers that walk up to
/// their work, and once nothing can resolve them, nothing keeps them or what waits for them.
///
/// A background future on a pool of Futures' own is held strongly too
/// (`isHeldStronglyByDerivedFutures`): it always resolves (the pool runs every job it queued,
/// and a cancel resolves it at once), and its resolution hands over the callback that closed the
/// cycle. Not on a context made from a closure, which may never run the work.
struct Upstream {
    private enum Link {
        case owned(_FutureCore)
        case watched(WatchedSource)
        /// A source no reader can find work above: counted, not referenced.
        case unlinked
    }

    private var link: Link?

    /// A link to `future`: strong or weak as its kind needs (see above).
    init(_ future: _FutureCore) {
        link = future.isHeldStronglyByDerivedFutures ? .owned(future) : .watched(WatchedSource(future))
    }

    /// A link to `future` if a reader may find work above it, and an unlinked place otherwise (a
    /// promise's future, a pinned one, a derived future that leads to no work): a walk up the
    /// links has nothing to do there, and a weak reference would cost every such source a side
    /// table. The place still counts as a source (`DerivedLinks.soleUpstream`).
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

    /// An unlinked place (see `init(ifLeadingToWork:)`).
    private init(unlinked: Void) {
        link = .unlinked
    }

    /// A link that holds `future` strongly, whatever its kind: one that a link held so already,
    /// moved into another (`_ZipPairStep.takePaired(more:detachments:)`).
    init(holding future: _FutureCore) {
        link = .owned(future)
    }

    /// An empty link: a free slot of `DerivedLinks.replaceSource(inSlot:with:)`.
    init() {
        link = nil
    }

    /// The source, unless it was freed (then nothing can resolve it any more).
    var future: _FutureCore? {
        switch link {
        case .owned(let future)?: future
        case .watched(let watched)?: watched.future
        case .unlinked?, nil: nil
        }
    }

    /// The source if this link holds it strongly.
    var owner: _FutureCore? {
        if case .owned(let future)? = link { return future }
        return nil
    }

    /// Whether this link holds its source, strongly or weakly.
    var isLinked: Bool {
        switch link {
        case .owned?, .watched?: true
        case .unlinked?, nil: false
        }
    }

    /// Whether this link holds its source strongly.
    var isOwned: Bool {
        if case .owned? = link { return true }
        return false
    }

    /// Empties the link; returns the source it held strongly, moved out, if any (a watched link
    /// is dropped here: that frees no future).
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
    /// The timer of a timeout, which holds the future until it fires.
    case timer(DelayedWork.Timer)
    /// What to do once the future is decided (a fold cancels the chain it made).
    case action(@Sendable () -> Void)

    /// Takes the callback back from its source, or cancels the timer.
    func detach() {
        switch self {
        case .callback(let registration): _FutureCore.removeResolutionCallback(registration)
        case .timer(let timer): timer.cancel()
        case .action(let action): action()
        }
    }
}
