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
    public static func allSettled(
        _ futures: [Future<Value, Failure>],
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<[Result<Value, Failure>], Never> {
        guard !futures.isEmpty else {
            return Future<[Result<Value, Failure>], Never>(resolved: .success([]), fileID: fileID, line: line)
        }
        let count = futures.count
        return .init(derivingFrom: futures, fileID: fileID, line: line) { child in
            let settled = LockedBox(SettledResults<Value, Failure>(count: count))
            for (index, future) in futures.enumerated() {
                // One closure per source, as in `_allConnected`.
                future._addResolutionCallback { source in
                    let result = Self._resolvedResult(of: source)
                    let all = settled.withLock { $0.record(result, at: index) }
                    if let all { child.resolve(with: .success(all)) }
                }
            }
        }
    }
}

/// The results of `Future.allSettled` as they arrive.
struct SettledResults<Value: Sendable, Failure: Error> {
    private var results: [Result<Value, Failure>?]
    private var remaining: Int

    init(count: Int) {
        results = Array(repeating: nil, count: count)
        remaining = count
    }

    /// Records one result; returns them all once the last has arrived.
    mutating func record(_ result: Result<Value, Failure>, at index: Int) -> [Result<Value, Failure>]? {
        results[index] = result
        remaining -= 1
        guard remaining == 0 else { return nil }
        defer { results = [] }
        return results.map { $0.unsafelyUnwrapped }
    }
}
