/// A callback that is an object of its own (`ParkedCallback.step`): a derived future's step
/// (`MapStep`, `FlatMapStep`, `_ZipPairStep`), also its child's links. Its child holds it too,
/// so it is told to let go (`abandon(into:)`) rather than freed.
@usableFromInline
protocol DerivedStep: AnyObject {
    /// Resolves the step's child from `source`, which has resolved.
    func resolveOwner(from source: _FutureCore)
    /// Lets go, into the trampoline's `list`, of what the step holds for its child: the callback
    /// will never run (source freed pending, or taken back), or the step was never parked.
    func abandonStep(into list: inout [Any])
    /// Parks the step on its sources for `owner`, a lazy source's child a reader demands;
    /// `first` was taken under the lock that cleared `DerivedLinks.connectsOnDemand`.
    func connectOnDemand(owner: _FutureCore, first: _FutureCore?)
}
