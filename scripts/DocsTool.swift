// Helpers for scripts/build-docs, compiled by it with the toolchain's swiftc.
//
//   DocsTool snippets <module> <output.symbols.json> <snippet.swift>...
//       Writes the symbol graph of SwiftPM snippets that DocC's @Snippet directive reads, as
//       swift-docc-plugin's snippet-extract does: the leading `//` comment is the explanation;
//       `// snippet.hide` and `// snippet.show` hide and show lines; `// snippet.NAME` starts a
//       slice and `// snippet.end` ends it.
//   DocsTool coverage <symbols.json>...
//       Fails, listing them, if any symbol in the graphs has no doc comment of its own (graphs
//       dumped with --skip-inherited-docs, so an inherited comment does not count).
import Foundation

struct Failure: Error, CustomStringConvertible {
    let description: String
}

/// A snippet file, parsed.
struct Snippet {
    var name: String
    var explanation: [String] = []
    var lines: [String] = []
    var slices: [String: Range<Int>] = [:]

    init(path: String) throws {
        name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        guard let source = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Failure(description: "cannot read \(path)")
        }
        var all = source.components(separatedBy: "\n")[...]
        while let first = all.first, first.trimmingCharacters(in: .whitespaces).isEmpty { all.removeFirst() }
        // The explanation: the comment lines at the top, up to a blank line, code or a marker.
        while let first = all.first, let text = Self.comment(first), Self.marker(first) == nil {
            explanation.append(text.hasPrefix(" ") ? String(text.dropFirst()) : text)
            all.removeFirst()
        }
        var visible = true
        var open: (name: String, start: Int)?
        func close() {
            if let slice = open, slice.start < lines.count { slices[slice.name] = slice.start..<lines.count }
            open = nil
        }
        for line in all {
            switch Self.marker(line) {
            case "hide"?: visible = false
            case "show"?: visible = true
            case "end"?: close()
            case let name?:
                guard visible else { continue }
                if open != nil { close() }
                open = (name, lines.count)
            case nil:
                if visible, !(lines.isEmpty && line.trimmingCharacters(in: .whitespaces).isEmpty) {
                    lines.append(line)
                }
            }
        }
        close()
        if let name = open?.name { throw Failure(description: "\(path): slice '\(name)' is not closed") }
        // Slices lose their blank edges; the code loses its common indentation.
        slices = slices.mapValues { range in
            var lower = range.lowerBound
            var upper = range.upperBound
            while lower < upper, lines[lower].trimmingCharacters(in: .whitespaces).isEmpty { lower += 1 }
            while lower < upper, lines[upper - 1].trimmingCharacters(in: .whitespaces).isEmpty { upper -= 1 }
            return lower..<upper
        }
        for (name, range) in slices where range.isEmpty {
            throw Failure(description: "\(path): slice '\(name)' is empty")
        }
        let indentation =
            lines.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        lines = lines.map { String($0.dropFirst(min(indentation, $0.prefix { $0 == " " }.count))) }
        while let last = lines.last, last.trimmingCharacters(in: .whitespaces).isEmpty { lines.removeLast() }
    }

    /// The text of a `//` comment line, or `nil` for any other line.
    static func comment(_ line: String) -> String? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard trimmed.hasPrefix("//") else { return nil }
        return String(trimmed.dropFirst(2))
    }

    /// "hide", "show", "end" or a slice name, for a `// snippet.X` line.
    static func marker(_ line: String) -> String? {
        guard let text = comment(line)?.trimmingCharacters(in: .whitespaces),
            text.lowercased().hasPrefix("snippet.")
        else { return nil }
        let name = text.dropFirst("snippet.".count).prefix { !$0.isWhitespace }
        guard !name.isEmpty else { return nil }
        let lowered = name.lowercased()
        return ["hide", "show", "end"].contains(lowered) ? lowered : String(name)
    }

    func symbol(module: String) -> [String: Any] {
        [
            "identifier": ["precise": "$snippet__\(module).\(name)", "interfaceLanguage": "swift"],
            "names": ["title": name],
            "pathComponents": ["Snippets", name],
            "docComment": ["lines": explanation.map { ["text": $0] }],
            "accessLevel": "public",
            "kind": ["identifier": "snippet", "displayName": "Snippet"],
            "snippet": [
                "language": "swift",
                "lines": lines,
                "slices": slices.mapValues { [$0.lowerBound, $0.upperBound] },
            ] as [String: Any],
            "isVirtual": true,
        ]
    }
}

func writeSnippets(module: String, output: String, files: [String]) throws {
    let snippets = try files.sorted().map(Snippet.init(path:))
    let graph: [String: Any] = [
        "metadata": [
            "formatVersion": ["major": 0, "minor": 1, "patch": 0], "generator": "scripts/DocsTool.swift",
        ],
        "module": ["name": module, "platform": [String: Any](), "isVirtual": true],
        "symbols": snippets.map { $0.symbol(module: module) },
        "relationships": [Any](),
    ]
    let data = try JSONSerialization.data(withJSONObject: graph, options: [.prettyPrinted, .sortedKeys])
    try data.write(to: URL(fileURLWithPath: output))
    for snippet in snippets {
        let slices = snippet.slices.keys.sorted().joined(separator: ", ")
        print("  snippet \(snippet.name): \(snippet.lines.count) lines; slices: \(slices.isEmpty ? "none" : slices)")
    }
}

func checkCoverage(graphs: [String]) throws {
    var missing: [String] = []
    var count = 0
    for path in graphs {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let graph = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let symbols = graph["symbols"] as? [[String: Any]]
        else { throw Failure(description: "\(path) is not a symbol graph") }
        for symbol in symbols {
            // An extension block (`extension Future: Sequence`) is not documented itself; its
            // members are.
            let kindIdentifier = (symbol["kind"] as? [String: Any])?["identifier"] as? String
            if kindIdentifier == "swift.extension" { continue }
            count += 1
            let lines = (symbol["docComment"] as? [String: Any])?["lines"] as? [[String: Any]] ?? []
            let text = lines.compactMap { $0["text"] as? String }.joined().trimmingCharacters(in: .whitespaces)
            if text.isEmpty {
                let path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
                let kind = (symbol["kind"] as? [String: Any])?["displayName"] as? String ?? "symbol"
                missing.append("\(kind) \(path)")
            }
        }
    }
    guard missing.isEmpty else {
        let list = missing.sorted().joined(separator: "\n  ")
        throw Failure(description: "public symbols without a doc comment:\n  \(list)")
    }
    print("  all \(count) public symbols have doc comments")
}

do {
    let arguments = Array(CommandLine.arguments.dropFirst())
    switch arguments.first {
    case "snippets" where arguments.count >= 3:
        try writeSnippets(module: arguments[1], output: arguments[2], files: Array(arguments.dropFirst(3)))
    case "coverage" where arguments.count >= 2:
        try checkCoverage(graphs: Array(arguments.dropFirst()))
    default:
        throw Failure(description: "usage: DocsTool snippets <module> <output> <file>... | coverage <graph>...")
    }
} catch {
    FileHandle.standardError.write(Data("DocsTool: error: \(error)\n".utf8))
    exit(1)
}
