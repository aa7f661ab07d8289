import Foundation

// futures-demo [directory]
// Summarizes every regular file under the directory (default: this package's Sources) with
// and without futures, and prints the times. Bad input prints one line on stderr, exit code 1.
let usage = """
    usage: futures-demo [directory]

    Checksums every regular file under the directory (by default this package's Sources), one
    file after another and with a BackgroundFuture per file, five times each way, and prints the
    best and median times of both. Then it puts a LazyFuture per file in a dictionary, reads a
    few entries, and shows that only their closures ran.

    options:
      -h, --help   Print this message.

    """
if CommandLine.arguments.dropFirst().contains(where: { $0 == "-h" || $0 == "--help" }) {
    print(usage, terminator: "")
    exit(0)
}
do throws(DemoError) {
    try Demo.run(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("futures-demo: error: \(error)\n".utf8))
    exit(1)
}
