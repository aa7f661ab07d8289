/// Stops the program for a programmer error, always printing `message` (also in -O builds).
func misuse(_ message: String) -> Never {
    fatalError(message)
}
