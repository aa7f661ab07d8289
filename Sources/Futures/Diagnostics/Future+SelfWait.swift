extension _FutureCore {
    /// This future is `target`, or a pending derived future that reaches it through one-source derived
    /// futures (with several sources it may resolve from another).
    final func reaches(_ target: _FutureCore) -> Bool {
        var node = self
        var visited: Set<ObjectIdentifier> = []
        while true {
            if node === target { return true }
            guard node._kind.isDerived, !node._isResolved, visited.insert(ObjectIdentifier(node)).inserted,
                let source = node.withLinks({ $0.soleUpstream }) ?? nil
            else { return false }
            node = source
        }
    }
}

extension Future {
    /// Fails with ``FutureCycleError``, or traps when the error type cannot hold it.
    func _failWaitingOnItself() {
        let error = FutureCycleError(site: _creationSite)
        guard let failure = error as any Error as? Failure else {
            misuse(
                "\(_description) created at \(_creationSite) was given itself to wait for: the closure of its "
                    + "flatMap (or flatMapError, or Future.retry) returned the future that call makes, or a future "
                    + "derived from it, which would never resolve. Its error type cannot hold FutureCycleError, "
                    + "so Futures stops here; return another future")
        }
        resolve(with: .failure(failure))
    }
}
