/// FNV-1a, 64-bit (Fowler–Noll–Vo): a small, well-known non-cryptographic hash.
enum FNV1a64 {
    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// Hashes `bytes`, starting from `seed` instead of the offset basis when chaining rounds.
    static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = offsetBasis) -> UInt64 {
        var hash = seed
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= prime
        }
        return hash
    }

    /// Hashes `bytes` `rounds` times, each round seeded with the previous one's hash.
    ///
    /// One round is the plain FNV-1a 64 checksum; the further rounds exist only to make the
    /// per-file work CPU-bound, so that running files in parallel has something to win.
    static func chainedHash(_ bytes: UnsafeRawBufferPointer, rounds: Int) -> UInt64 {
        var hash = offsetBasis
        for _ in 0..<max(1, rounds) {
            hash = self.hash(bytes, seed: hash)
        }
        return hash
    }
}
