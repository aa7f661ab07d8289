/// Stops the program for a programmer error, always printing `message` (also in -O builds).
///
/// A misused argument passes its caller's `fileID` and `line` (the public function's defaults),
/// so that the message points at the line to fix, not at a file inside FuturesApps.
func misuse(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    fatalError(message, file: file, line: line)
}
