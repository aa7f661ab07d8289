/// Turns a `#fileID` literal into a pointer that costs one word per future.
///
/// `#fileID` is always a pointer-backed, NUL-terminated static string, so the pointer alone
/// recovers the text when a message needs it.
@usableFromInline
enum CreationSite {
    @inlinable
    static func pointer(_ fileID: StaticString) -> UnsafeRawPointer? {
        fileID.hasPointerRepresentation ? UnsafeRawPointer(fileID.utf8Start) : nil
    }

    static func describe(_ pointer: UnsafeRawPointer?, line: UInt) -> String {
        guard let pointer else { return "<unknown>:\(line)" }
        return "\(String(cString: pointer.assumingMemoryBound(to: CChar.self))):\(line)"
    }
}
