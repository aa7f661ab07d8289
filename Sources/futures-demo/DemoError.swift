/// Why the demo cannot do its job. Each case prints as one line on standard error.
enum DemoError: Error, CustomStringConvertible {
    /// More than one argument was given.
    case usage(arguments: [String])
    /// An argument that starts with "-" and is not an option the demo knows.
    case unknownOption(String)
    /// The path does not exist.
    case noSuchDirectory(String)
    /// The path exists but is not a directory.
    case notADirectory(String)
    /// A directory under the root could not be listed.
    case unreadableDirectory(String, reason: String)
    /// A regular file could not be opened or read.
    case unreadableFile(String, reason: String)
    /// The directory holds no regular file, so there is nothing to measure.
    case noRegularFiles(String)
    /// The futures computed a different summary than the sequential loop: a bug, not bad input.
    case summariesDiffer(String)
    /// The lazy dictionary ran a different number of closures than it was read for.
    case lazyClosureCount(expected: Int, ran: Int)

    var description: String {
        switch self {
        case .usage(let arguments):
            "expected at most one argument (a directory), got \(arguments.count); usage: futures-demo [directory]"
        case .unknownOption(let option):
            "unknown option '\(option)'; usage: futures-demo [directory] (futures-demo --help says more; a directory whose name starts with '-' is ./\(option))"
        case .noSuchDirectory(let path):
            "no such directory: \(path)"
        case .notADirectory(let path):
            "not a directory: \(path)"
        case .unreadableDirectory(let path, let reason):
            "cannot list directory \(path): \(reason)"
        case .unreadableFile(let path, let reason):
            "cannot read file \(path): \(reason)"
        case .noRegularFiles(let path):
            "no regular files under \(path)"
        case .summariesDiffer(let path):
            "internal error: futures and sequential loop disagree on \(path)"
        case .lazyClosureCount(let expected, let ran):
            "internal error: read \(expected) lazy futures but \(ran) closures ran"
        }
    }
}
