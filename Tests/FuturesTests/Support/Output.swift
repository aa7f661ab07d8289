import Foundation

/// Writes `text` and a newline to standard output at once, unbuffered, so that it survives a
/// trap that follows (exit tests read it).
func writeUnbuffered(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

/// The text of captured output bytes.
func text(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self)
}
