import Foundation

// futures-demo [directory]
// Summarizes every regular file under the directory (default: this package's Sources) with
// and without futures, and prints the times. Bad input prints one line on stderr, exit code 1.
do throws(DemoError) {
    try Demo.run(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("futures-demo: error: \(error)\n".utf8))
    exit(1)
}
