extension Future {
    /// The results of `futures` as an asynchronous sequence, each as soon as its future
    /// resolves: the fastest first. Python's `as_completed`.
    ///
    /// The sequence ends after the last result. It never throws: a failure is an element. Each
    /// iteration gets every result once; iterating starts lazy futures on the global context.
    /// See ``FutureCompletions`` for cancellation.
    ///
    /// ```swift
    /// let downloads = urls.map { url in BackgroundFuture { try download(url) } }
    /// for await result in Future.completions(of: downloads) {
    ///     switch result {
    ///     case .success(let page): index(page)
    ///     case .failure(let error): print("skipped: \(error)")
    ///     }
    /// }
    /// ```
    /// - Parameter futures: The futures whose results to deliver.
    /// - Returns: The sequence of their results, in the order they resolve.
    public static func completions(of futures: [Future<Value, Failure>]) -> FutureCompletions<Value, Failure> {
        FutureCompletions(futures: futures)
    }
}
