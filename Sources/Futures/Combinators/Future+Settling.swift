extension Future {
    /// Returns a future of the results of all `futures`, in their order, once every one has
    /// resolved, succeeding or failing.
    ///
    /// It cannot fail: each failure is an element of the array. If any of `futures` is lazy,
    /// the new future is lazy. This is JavaScript's `Promise.allSettled` and PromiseKit's
    /// `when(resolved:)`; ``all(_:fileID:line:)`` stops at the first failure instead.
    ///
    /// ```swift
    /// let uploads = Future.allSettled(files.map { file in BackgroundFuture { try upload(file) } })
    /// for (file, result) in zip(files, uploads.value) {
    ///     if case .failure(let error) = result { print("\(file) failed: \(error)") }
    /// }
    /// ```
    /// - Parameters:
    ///   - futures: The futures to wait for; none gives an empty array at once.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    /// - Returns: A future of their results, in order.
    @inlinable
    public static func allSettled(
        _ futures: [Future<Value, Failure>],
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<[Result<Value, Failure>], Never> {
        guard !futures.isEmpty else {
            return Future<[Result<Value, Failure>], Never>(resolved: .success([]), fileID: fileID, line: line)
        }
        let count = futures.count
        // Inlinable, with the callbacks it parks, so that they are compiled for the caller's
        // types; they record the sources in `ArrivedSources`, which names no generic type, as
        // `Future.all` does, rather than in a lock box of a generic type, which unspecialized code
        // looks up at run time.
        return .init(derivingFrom: futures, fileID: fileID, line: line) { child in
            let arrived = ArrivedSources.make(count: count, failuresDecide: false)
            for (index, future) in futures.enumerated() {
                // Failures do not decide here: every source is an arrival, whatever its outcome,
                // so the decision comes with the last one to resolve, with all of them in order.
                future._addResolutionCallback { source in
                    guard case .succeeded(let sources) = arrived.record(source, at: index) else {
                        return
                    }
                    child.resolve(with: .success(sources.map { Self._resolvedResult(of: $0) }))
                }
            }
        }
    }
}
