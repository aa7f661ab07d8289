extension Future: Encodable where Value: Encodable, Failure == Never {
    /// Encodes the future as its value: a future encodes exactly as the value would, wherever
    /// it sits in what is being encoded.
    ///
    /// The value goes through a single-value container, so the encoder treats it as it treats
    /// the value itself (a `JSONEncoder` applies its date strategy to a `Future<Date, Never>`).
    ///
    /// ```swift
    /// struct Report: Encodable { let title: String; let total: Future<Int, Never> }
    /// let json = try JSONEncoder().encode(Report(title: "Q3", total: BackgroundFuture { sum() }))
    /// // {"title":"Q3","total":1234}
    /// ```
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: What the encoder throws for the value.
    /// - Important: Blocks the calling thread until the future resolves.
    @available(*, noasync, message: "encoding a future blocks until it resolves; encode 'await future.get()'")
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
