extension Future {
    /// Returns a future that resolves like this one, `delay` after this one resolves.
    ///
    /// Values and errors alike arrive `delay` late; a cancellation arrives at once, so that a
    /// cancelled chain stops without waiting. No thread waits meanwhile: a Dispatch timer
    /// resolves the new future. It keeps this future's kind: derived from a lazy future, nothing
    /// runs (and no timer starts) until it is read. The timer holds the new future and this
    /// future's result until it fires, `delay` after this future resolved, even if nothing reads
    /// the new future any more.
    ///
    /// To start work late rather than deliver its result late, use
    /// ``BackgroundFuture/init(after:on:fileID:line:_:)``.
    ///
    /// ```swift
    /// let toast = saved.delayed(by: .seconds(2))      // show "saved" for two seconds
    /// toast.onComplete(on: .main) { _ in hideToast() }
    /// ```
    /// - Parameters:
    ///   - delay: How long after this future resolves the new one does; zero or negative
    ///     resolves it at once.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    /// - Returns: A future with this future's result, late.
    public func delayed(
        by delay: Duration,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<Value, Failure> {
        _derive(fileID: fileID, line: line) { parent, child in
            let result = parent._result
            let cancelled = parent._isCancelled
            if cancelled || delay <= .zero {
                child.resolve(with: result, sourceCancelled: cancelled)
                return
            }
            DelayedWork.after(delay) { child.resolve(with: result) }
        }
    }
}
