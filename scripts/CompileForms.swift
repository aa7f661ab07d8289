// The compile-forms check, compiled and run by scripts/check-compile-forms with the toolchain's
// swiftc. See that script for what it checks; Tests/CompileForms/README.md for how to add a form.
//
//   CompileForms <repository> <work folder>
import Foundation

struct Failure: Error, CustomStringConvertible {
    let description: String
}

// MARK: - Running tools

struct Output {
    let status: Int32
    let text: String
}

/// Runs `arguments` (looked up on PATH), returning its exit status and its merged output.
func run(_ arguments: [String], in directory: URL? = nil) throws -> Output {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Output(status: process.terminationStatus, text: String(decoding: data, as: UTF8.self))
}

/// Seconds since `start`, for the summary lines.
func seconds(since start: Date) -> String {
    String(format: "%.1f s", Date().timeIntervalSince(start))
}

// MARK: - Files

let fileManager = FileManager.default

func read(_ url: URL) throws -> String {
    guard let text = try? String(contentsOf: url, encoding: .utf8) else {
        throw Failure(description: "cannot read \(url.path)")
    }
    return text
}

/// Writes `text` to `url` only if that changes the file, so that a second run rebuilds only
/// what changed.
func write(_ text: String, to url: URL) throws {
    if let old = try? String(contentsOf: url, encoding: .utf8), old == text { return }
    try fileManager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: url, atomically: true, encoding: .utf8)
}

/// The `.swift` files directly in `folder`, sorted; none if it does not exist.
func swiftFiles(in folder: URL) -> [URL] {
    let names = (try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".swift") }.sorted().map { folder.appendingPathComponent($0) }
}

/// `text` with a `#sourceLocation` line in front, so that diagnostics point at `file`, `line`.
func located(_ text: String, file: String, line: Int) -> String {
    "#sourceLocation(file: \"\(file)\", line: \(line))\n\(text)\n#sourceLocation()\n"
}

// MARK: - Expected diagnostics

/// A diagnostic that a form or a documentation block must produce.
struct Expectation {
    let file: String
    let line: Int?  // nil: anywhere in the file
    let kind: String  // "error" or "warning"
    let text: String
}

struct Diagnostic {
    let file: String
    let line: Int
    let kind: String
    let message: String
}

/// The diagnostics in swiftc's output (`-diagnostic-style llvm`).
func diagnostics(in output: String) -> [Diagnostic] {
    output.split(separator: "\n").compactMap { line in
        // path:line:column: kind: message
        let parts = line.split(separator: ":", maxSplits: 4, omittingEmptySubsequences: false)
        guard parts.count == 5, let number = Int(parts[1]), Int(parts[2]) != nil else { return nil }
        let kind = parts[3].trimmingCharacters(in: .whitespaces)
        guard ["error", "warning", "note", "remark"].contains(kind) else { return nil }
        return Diagnostic(
            file: String(parts[0]), line: number, kind: kind,
            message: parts[4].trimmingCharacters(in: .whitespaces))
    }
}

/// What is wrong when `expectations` meet `found`: an expectation no diagnostic meets, or an
/// error or warning that no expectation names (notes and remarks may come freely).
func mismatches(_ expectations: [Expectation], _ found: [Diagnostic]) -> [String] {
    func meets(_ diagnostic: Diagnostic, _ expectation: Expectation) -> Bool {
        diagnostic.kind == expectation.kind && diagnostic.message.contains(expectation.text)
            && (expectation.line == nil || expectation.line == diagnostic.line)
            && URL(fileURLWithPath: diagnostic.file).lastPathComponent
                == URL(fileURLWithPath: expectation.file).lastPathComponent
    }
    var problems: [String] = []
    for expectation in expectations where !found.contains(where: { meets($0, expectation) }) {
        let place = expectation.line.map { "\(expectation.file):\($0)" } ?? expectation.file
        problems.append("\(place): expected \(expectation.kind) containing \"\(expectation.text)\", which did not come")
    }
    for diagnostic in found where diagnostic.kind == "error" || diagnostic.kind == "warning" {
        if !expectations.contains(where: { meets(diagnostic, $0) }) {
            problems.append(
                "\(diagnostic.file):\(diagnostic.line): unexpected \(diagnostic.kind): \(diagnostic.message)")
        }
    }
    return problems
}

/// The expectations written in a form file: a line `// expect error: TEXT` (or `warning`) names
/// a diagnostic of the next line that is not a comment or blank. A line
/// `// swiftc-flags: ...` at the top gives extra compiler flags.
func expectations(inForm url: URL) throws -> (expectations: [Expectation], flags: [String]) {
    let lines = try read(url).components(separatedBy: "\n")
    var pending: [(kind: String, text: String)] = []
    var found: [Expectation] = []
    var flags: [String] = []
    for (index, line) in lines.enumerated() {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("// swiftc-flags:") {
            flags += trimmed.dropFirst("// swiftc-flags:".count).split(separator: " ").map(String.init)
        } else if trimmed.hasPrefix("// expect ") {
            let body = trimmed.dropFirst("// expect ".count)
            guard let colon = body.firstIndex(of: ":") else {
                throw Failure(description: "\(url.path):\(index + 1): write '// expect error: TEXT'")
            }
            let kind = String(body[..<colon])
            guard kind == "error" || kind == "warning" else {
                throw Failure(description: "\(url.path):\(index + 1): expect 'error' or 'warning', not '\(kind)'")
            }
            pending.append((kind, body[body.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        } else if !trimmed.isEmpty, !trimmed.hasPrefix("//") {
            for (kind, text) in pending {
                found.append(Expectation(file: url.path, line: index + 1, kind: kind, text: text))
            }
            pending = []
        }
    }
    guard pending.isEmpty else { throw Failure(description: "\(url.path): an expectation at the end names no line") }
    return (found, flags)
}

// MARK: - Code blocks of the documentation

/// What a `<!-- compile: ... -->` line right before a fenced block says about it.
enum Marker: Equatable {
    /// No marker: a program (`main.swift`) that must compile with zero warnings.
    case program
    /// The client manifest the package's install instructions show.
    case manifest
    /// The `main.swift` of that manifest's `App` target.
    case app
    /// Must produce this diagnostic, and no other error or warning.
    case expect(kind: String, text: String)
    /// Not compiled, for the reason given.
    case skip(String)
}

struct CodeBlock {
    let document: String  // path relative to the repository
    let line: Int  // line of the first line of code, from 1
    let text: String
    let marker: Marker
}

func marker(_ line: String, at place: String) throws -> Marker? {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    guard trimmed.hasPrefix("<!-- compile:"), trimmed.hasSuffix("-->") else { return nil }
    let body = trimmed.dropFirst("<!-- compile:".count).dropLast(3).trimmingCharacters(in: .whitespaces)
    func rest(after prefix: String) -> String {
        body.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
    }
    if body == "manifest" { return .manifest }
    if body == "app" { return .app }
    if body.hasPrefix("skip:") { return .skip(rest(after: "skip:")) }
    if body.hasPrefix("error:") { return .expect(kind: "error", text: rest(after: "error:")) }
    if body.hasPrefix("warning:") { return .expect(kind: "warning", text: rest(after: "warning:")) }
    throw Failure(
        description: "\(place): unknown marker '\(body)' (manifest, app, skip: WHY, error: TEXT, warning: TEXT)")
}

/// The fenced `swift` blocks of a Markdown file.
func codeBlocks(in url: URL, named document: String) throws -> [CodeBlock] {
    let lines = try read(url).components(separatedBy: "\n")
    var blocks: [CodeBlock] = []
    var index = 0
    while index < lines.count {
        let line = lines[index]
        let indentation = line.prefix { $0 == " " }.count
        let fence = line.dropFirst(indentation)
        guard fence.hasPrefix("```") else {
            index += 1
            continue
        }
        let language = fence.dropFirst(3).trimmingCharacters(in: .whitespaces)
        var end = index + 1
        while end < lines.count, !lines[end].trimmingCharacters(in: .whitespaces).hasPrefix("```") { end += 1 }
        guard end < lines.count else { throw Failure(description: "\(document):\(index + 1): unclosed code block") }
        if language == "swift" {
            var previous = index - 1
            while previous >= 0, lines[previous].trimmingCharacters(in: .whitespaces).isEmpty { previous -= 1 }
            let found = previous >= 0 ? try marker(lines[previous], at: "\(document):\(previous + 1)") : nil
            let code = lines[(index + 1)..<end].map {
                String($0.dropFirst(min(indentation, $0.prefix { $0 == " " }.count)))
            }
            blocks.append(
                CodeBlock(
                    document: document, line: index + 2, text: code.joined(separator: "\n"), marker: found ?? .program))
        }
        index = end + 1
    }
    return blocks
}

// MARK: - The generated package

/// A target of the generated package: its name, the folder its files go to, and its settings.
struct GeneratedTarget {
    let name: String
    let folder: String
    let isExecutable: Bool
    let swiftSettings: [String]
    let files: [(name: String, text: String)]

    var declaration: String {
        let kind = isExecutable ? "executableTarget" : "target"
        return """
                .\(kind)(
                    name: "\(name)",
                    dependencies: [
                        .product(name: "Futures", package: "Futures"),
                        .product(name: "FutureProxy", package: "Futures"),
                        .product(name: "FuturesApps", package: "Futures"),
                    ],
                    path: "\(folder)",
                    swiftSettings: [\(swiftSettings.joined(separator: ", "))]
                ),
            """
    }
}

/// Swift settings of every target: an import is needed for the members it brings (SE-0444), so a
/// block that uses a Foundation member without showing `import Foundation` fails here too.
let commonSettings = [#".enableUpcomingFeature("MemberImportVisibility")"#]

func main() throws {
    let arguments = CommandLine.arguments
    guard arguments.count == 3 else { throw Failure(description: "usage: CompileForms <repository> <work>") }
    let repository = URL(fileURLWithPath: arguments[1]).standardizedFileURL
    let work = URL(fileURLWithPath: arguments[2]).standardizedFileURL
    let forms = repository.appendingPathComponent("Tests/CompileForms")
    let package = work.appendingPathComponent("package")
    let scratch = work.appendingPathComponent("scratch")

    // The documents and their code.
    let articles = ["Sources/Futures/Futures.docc", "Sources/FuturesApps/FuturesApps.docc"].flatMap { docc in
        ((try? fileManager.contentsOfDirectory(atPath: repository.appendingPathComponent(docc).path)) ?? [])
            .filter { $0.hasSuffix(".md") }.sorted().map { "\(docc)/\($0)" }
    }
    var blocks: [CodeBlock] = []
    // README.md is checked by scripts/check-readme-blocks: each of its blocks alone, with no prelude.
    let notes = ((try? fileManager.contentsOfDirectory(atPath: repository.appendingPathComponent("docs").path)) ?? [])
        .filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    for document in notes + articles {
        blocks += try codeBlocks(in: repository.appendingPathComponent(document), named: document)
    }

    // The install instructions: one manifest, shown the same wherever it is shown, and its app.
    let manifests = blocks.filter { $0.marker == .manifest }
    guard let manifest = manifests.first else { throw Failure(description: "no '<!-- compile: manifest -->' block") }
    for other in manifests where other.text != manifest.text {
        throw Failure(
            description:
                "\(other.document):\(other.line): this manifest differs from \(manifest.document):\(manifest.line)")
    }
    guard let app = blocks.first(where: { $0.marker == .app }) else {
        throw Failure(description: "no '<!-- compile: app -->' block (the manifest's Sources/App/main.swift)")
    }
    var manifestLines = manifest.text.components(separatedBy: "\n")
    guard manifestLines.first?.hasPrefix("// swift-tools-version:") == true else {
        throw Failure(description: "\(manifest.document):\(manifest.line): a manifest starts with its tools version")
    }
    // `.defaultIsolation` needs tools version 6.2; the rest of the manifest means the same.
    manifestLines[0] = "// swift-tools-version: 6.2"

    // The targets: the forms, in each mode, and one executable per documentation block.
    func formFiles(_ folder: String) throws -> [(name: String, text: String)] {
        let files = swiftFiles(in: forms.appendingPathComponent(folder))
        guard !files.isEmpty else { throw Failure(description: "no forms in Tests/CompileForms/\(folder)") }
        // A copy's name differs from the original's: two paths may not give one `#fileID`.
        return try files.map { ("Copy-" + $0.lastPathComponent, located(try read($0), file: $0.path, line: 1)) }
    }
    var targets = [
        GeneratedTarget(
            name: "FormsSwift6", folder: "Forms/FormsSwift6", isExecutable: false, swiftSettings: commonSettings,
            files: try formFiles("Futures")),
        GeneratedTarget(
            name: "FormsSwift5", folder: "Forms/FormsSwift5", isExecutable: false,
            swiftSettings: commonSettings + [".swiftLanguageMode(.v5)"], files: try formFiles("Futures")),
        GeneratedTarget(
            name: "ProxyForms", folder: "Forms/ProxyForms", isExecutable: false, swiftSettings: commonSettings,
            files: try formFiles("FutureProxy")),
        GeneratedTarget(
            name: "MainActorForms", folder: "Forms/MainActorForms", isExecutable: false,
            swiftSettings: commonSettings + [".defaultIsolation(MainActor.self)"], files: try formFiles("MainActor")),
    ]
    var expectedBlocks: [(block: CodeBlock, prelude: URL?)] = []
    var programCount = 0
    var counters: [String: Int] = [:]
    for block in blocks {
        let stem = URL(fileURLWithPath: block.document).deletingPathExtension().lastPathComponent
        let preludeURL = forms.appendingPathComponent("Docs/\(stem).swift")
        let prelude = fileManager.fileExists(atPath: preludeURL.path) ? preludeURL : nil
        switch block.marker {
        case .program:
            counters[stem, default: 0] += 1
            programCount += 1
            let name = "Doc\(stem)\(counters[stem]!)"
            var files = [
                (
                    "main.swift",
                    located(block.text, file: repository.appendingPathComponent(block.document).path, line: block.line)
                )
            ]
            if let prelude { files.append(("Prelude.swift", located(try read(prelude), file: prelude.path, line: 1))) }
            targets.append(
                GeneratedTarget(
                    name: name, folder: "Docs/\(name)", isExecutable: true, swiftSettings: commonSettings, files: files)
            )
        case .expect:
            expectedBlocks.append((block, prelude))
        case .manifest, .app, .skip:
            break
        }
    }

    // Write the package; drop the folders of targets that are gone.
    try write(
        manifestLines.joined(separator: "\n") + "\n\n// Added by scripts/check-compile-forms:\npackage.targets += [\n"
            + targets.map(\.declaration).joined(separator: "\n") + "\n]\n",
        to: package.appendingPathComponent("Package.swift"))
    try write(
        located(app.text, file: repository.appendingPathComponent(app.document).path, line: app.line),
        to: package.appendingPathComponent("Sources/App/main.swift"))
    for parent in ["Forms", "Docs"] {
        let folder = package.appendingPathComponent(parent)
        let wanted = Set(
            targets.map(\.folder).filter { $0.hasPrefix(parent + "/") }.map { String($0.dropFirst(parent.count + 1)) })
        for name in (try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? [] where !wanted.contains(name) {
            try fileManager.removeItem(at: folder.appendingPathComponent(name))
        }
    }
    for target in targets {
        let folder = package.appendingPathComponent(target.folder)
        let wanted = Set(target.files.map(\.name))
        for name in (try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? [] where !wanted.contains(name) {
            try fileManager.removeItem(at: folder.appendingPathComponent(name))
        }
        for file in target.files { try write(file.text, to: folder.appendingPathComponent(file.name)) }
    }
    // The manifest depends on "../Futures": a folder named Futures beside the package, as the
    // install instructions say.
    let link = work.appendingPathComponent("Futures")
    if (try? fileManager.destinationOfSymbolicLink(atPath: link.path)) != repository.path {
        try? fileManager.removeItem(at: link)
        try fileManager.createSymbolicLink(at: link, withDestinationURL: repository)
    }

    // 1. Everything that must compile, in one build, warnings as errors.
    var start = Date()
    let build = ["swift", "build", "--package-path", package.path, "--scratch-path", scratch.path]
    var built = try run(build + ["-Xswiftc", "-warnings-as-errors"])
    if built.status != 0, built.text.contains("because of missing inputs") {
        // SwiftPM keeps the plan of a path dependency from which a file was deleted; plan again.
        try? fileManager.removeItem(at: scratch.appendingPathComponent("debug.yaml"))
        try? fileManager.removeItem(at: scratch.appendingPathComponent("build.db"))
        built = try run(build + ["-Xswiftc", "-warnings-as-errors"])
    }
    guard built.status == 0 else {
        print(built.text)
        throw Failure(description: "the forms and documentation blocks that must compile did not (above)")
    }
    let formCount = targets.filter { !$0.isExecutable }.reduce(0) { $0 + $1.files.count }
    print(
        "  compiled with zero warnings: \(formCount) form files in 4 targets (Swift 6, Swift 5, FutureProxy,"
            + " default main-actor isolation), \(programCount) documentation blocks and the install example"
            + " (\(seconds(since: start)))")

    // 2. Everything that must be rejected (or must warn), each file in one swiftc run against
    // the modules just built.
    start = Date()
    let modules = URL(
        fileURLWithPath: try run(build + ["--show-bin-path"]).text.trimmingCharacters(in: .whitespacesAndNewlines)
    ).appendingPathComponent("Modules")
    let swiftc = [
        // SIL, for the diagnostics of its mandatory passes ("will never be executed"); a file
        // with an error stops before them, so forms that expect those warnings have no error.
        "swiftc", "-emit-sil", "-wmo", "-o", "/dev/null", "-diagnostic-style", "llvm", "-swift-version", "6",
        "-enable-upcoming-feature", "MemberImportVisibility", "-I", modules.path,
        "-module-cache-path", work.appendingPathComponent("module-cache").path,
    ]
    struct Job {
        let name: String
        let command: [String]
        let expectations: [Expectation]
    }
    var jobs: [Job] = []
    for file in swiftFiles(in: forms.appendingPathComponent("Rejected")) {
        let (found, flags) = try expectations(inForm: file)
        guard !found.isEmpty else { throw Failure(description: "\(file.path): a rejected form expects nothing") }
        jobs.append(
            Job(
                name: file.lastPathComponent, command: swiftc + ["-parse-as-library"] + flags + [file.path],
                expectations: found))
    }
    for (index, (block, prelude)) in expectedBlocks.enumerated() {
        guard case .expect(let kind, let text) = block.marker else { continue }
        let folder = work.appendingPathComponent("expected/\(index)")
        let document = repository.appendingPathComponent(block.document).path
        try write(
            located(block.text, file: document, line: block.line), to: folder.appendingPathComponent("main.swift"))
        var files = [folder.appendingPathComponent("main.swift").path]
        if let prelude {
            try write(
                located(try read(prelude), file: prelude.path, line: 1),
                to: folder.appendingPathComponent("Prelude.swift"))
            files.append(folder.appendingPathComponent("Prelude.swift").path)
        }
        jobs.append(
            Job(
                name: "\(block.document):\(block.line)", command: swiftc + files,
                expectations: [Expectation(file: document, line: nil, kind: kind, text: text)]))
    }
    let results = LockedResults(count: jobs.count)
    DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
        let job = jobs[index]
        do {
            let output = try run(job.command)
            results.set(index, mismatches(job.expectations, diagnostics(in: output.text)))
        } catch {
            results.set(index, ["\(job.name): \(error)"])
        }
    }
    let problems = results.all.flatMap { $0 }
    guard problems.isEmpty else {
        throw Failure(description: "forms that must be rejected:\n  " + problems.joined(separator: "\n  "))
    }
    let expectationCount = jobs.reduce(0) { $0 + $1.expectations.count }
    print(
        "  rejected as expected: \(expectationCount) diagnostics in \(jobs.count) files and blocks"
            + " (\(seconds(since: start)))")
}

/// One slot per job, filled from concurrent jobs.
final class LockedResults: @unchecked Sendable {
    // @unchecked: `slots` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var slots: [[String]]

    init(count: Int) { slots = Array(repeating: [], count: count) }

    func set(_ index: Int, _ value: [String]) {
        lock.lock()
        defer { lock.unlock() }
        slots[index] = value
    }

    var all: [[String]] {
        lock.lock()
        defer { lock.unlock() }
        return slots
    }
}

do {
    try main()
} catch {
    FileHandle.standardError.write(Data("check-compile-forms: \(error)\n".utf8))
    exit(1)
}
