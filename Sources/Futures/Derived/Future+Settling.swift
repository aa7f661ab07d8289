extension Future {
    /// Returns a future of the results of all `futures`, in their order, once every one has
    /// resolved, succeeding or failing.
    ///
    /// It cannot fail: failures are elements. Lazy if any source is. `Promise.allSettled`;
    /// ``all(_:fileID:line:)`` stops at the first failure instead.
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
    public static func allSettled(
        _ futures: [Future<Value, Failure>],
        fileID: StaticString = #fileID, line: UInt = #line
    ) -> Future<[Result<Value, Failure>], Never> {
        guard !futures.isEmpty else {
            return Future<[Result<Value, Failure>], Never>(resolved: .success([]), fileID: fileID, line: line)
        }
        let count = futures.count
        return .init(derivingFrom: futures, fileID: fileID, line: line) { child in
            let arrived = ArrivedSources.make(count: count, failuresDecide: false)
            for (index, future) in futures.enumerated() {
                // Every outcome is an arrival: the last one decides, with all in order.
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
