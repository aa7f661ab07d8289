/// Stops the program for a programmer error, printing `message` in every build. Callers pass
/// their public caller's `fileID` and `line`, so the message points at the line to fix.
func misuse(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    fatalError(message, file: file, line: line)
}
