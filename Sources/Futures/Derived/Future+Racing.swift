import Synchronization

extension Future {
    /// Returns a future of the first of `futures` to succeed; it fails only if every one fails,
    /// with the error of the last to fail.
    ///
    /// Earlier failures are ignored; the others go on (cancel them if unwanted). Lazy if any
    /// source is; a blocking read runs lazy sources in turn until one succeeds. JavaScript's
    /// `Promise.any`; ``first(of:fileID:line:)`` takes the first to resolve either way.
    ///
    /// ```swift
    /// let page = Future.firstSuccess(of: mirrors.map { mirror in BackgroundFuture { try fetch(from: mirror) } })
    /// ```
    /// - Parameters:
    ///   - futures: The futures to race; there must be at least one.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    /// - Returns: A future of the first value, or of the last error if none succeeds.
    public static func firstSuccess(
        of futures: [Future<Value, Failure>],
        fileID: StaticString = #fileID, line: UInt = #line
    ) -> Future<Value, Failure> {
        guard !futures.isEmpty else { _firstSuccessOfNoFutures(fileID: fileID, line: line) }
        let count = futures.count
        return .init(derivingFrom: futures, fileID: fileID, line: line) { child in
            let failures = _FailureCount()
            // The first success decides; the others' callbacks go then (`keep`).
            for future in futures {
                child.keep(
                    future._addResolutionCallback { source in
                        let future = unsafeDowncast(source, to: Future<Value, Failure>.self)
                        switch future._result {
                        case .success(let value):
                            child.resolve(with: .success(value))
                        case .failure(let error):
                            if failures.addOne() == count {
                                child.resolve(with: .failure(error), sourceCancelled: future._isCancelled)
                            }
                        }
                    })
            }
        }
    }

    static func _firstSuccessOfNoFutures(fileID: StaticString, line: UInt) -> Never {
        misuse(
            "Future.firstSuccess(of:) needs at least one future; it was given none (with none, nothing could succeed or fail)",
            file: fileID, line: line)
    }
}

/// Failures counted for `firstSuccess(of:)`: the last one resolves the child with its error.
final class _FailureCount: Sendable {
    let count = Atomic<Int>(0)

    func addOne() -> Int { count.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue }
}
