extension Future {
    /// Returns a future that resolves like this one, `delay` after this one resolves.
    ///
    /// Values and errors arrive `delay` late; a cancellation at once, so a cancelled chain stops.
    /// A Dispatch timer resolves it (no thread waits), holding the new future and the result until
    /// it fires. Keeps this future's kind: lazy means no timer until read. To start work late,
    /// use ``BackgroundFuture/init(after:on:fileID:line:_:)``.
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
        fileID: StaticString = #fileID, line: UInt = #line
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
