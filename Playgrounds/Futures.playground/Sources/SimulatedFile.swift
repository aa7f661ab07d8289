/// A stand-in for a file on disk, for the pages to "load".
///
/// Loading it is CPU work of a fixed size: it generates the file's bytes from its seed and
/// checksums them (FNV-1a, 64 bits), counting lines on the way. Nothing sleeps, so a timing of
/// loads measures the processor, and two loads can overlap only on two cores.
public struct SimulatedFile: Sendable {
    /// The file's name, for printing.
    public let name: String
    /// How many bytes loading it generates and checksums.
    public let byteCount: Int
    /// What makes this file's bytes differ from another's.
    public let seed: UInt64

    /// Makes a file of `byteCount` bytes; the seed defaults to one derived from the name.
    public init(name: String, byteCount: Int = 4 << 20, seed: UInt64? = nil) {
        self.name = name
        self.byteCount = byteCount
        self.seed = seed ?? name.utf8.reduce(0x9E37_79B9_7F4A_7C15) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }

    /// "Loads" the file: generates its bytes and summarizes them. The same file always gives the
    /// same summary.
    public func load() -> FileSummary {
        var state = seed | 1
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        var lines = 0
        for _ in 0..<byteCount {
            // xorshift64: the next pseudo-random byte of the file.
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            let byte = UInt8(truncatingIfNeeded: state) & 0x7F
            if byte == 0x0A { lines += 1 }
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
        }
        return FileSummary(name: name, lineCount: lines, checksum: hash)
    }
}

/// What loading a ``SimulatedFile`` gives: its line count and checksum.
public struct FileSummary: Sendable, Hashable, CustomStringConvertible {
    /// The file's name.
    public let name: String
    /// How many newline bytes the file has.
    public let lineCount: Int
    /// The FNV-1a 64 checksum of the file's bytes.
    public let checksum: UInt64

    /// "notes.txt: 32870 lines, fnv1a 0x…".
    public var description: String {
        let hex = String(checksum, radix: 16)
        return "\(name): \(lineCount) lines, fnv1a 0x\(String(repeating: "0", count: 16 - hex.count))\(hex)"
    }
}
