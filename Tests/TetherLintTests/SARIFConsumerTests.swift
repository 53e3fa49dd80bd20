import Foundation
import TestSupport
import Testing
import TetherLint

/// Microsoft's sarif-tools (PyPI), which `make test` installs into `.build/sarif-tools`, reads
/// the SARIF output: the same findings as the text output, rule by rule and line by line.
@Suite struct SARIFConsumerTests {
    static let tool = packageRoot + "/.build/sarif-tools/bin/sarif"
    static var installed: Bool { FileManager.default.isExecutableFile(atPath: tool) }

    @Test(
        .enabled(
            if: installed || ProcessInfo.processInfo.environment["CI"] != nil,
            "sarif-tools is not installed: `make test` installs it into .build/sarif-tools"))
    func sarifToolsReadsTheSameFindingsAsTheTextOutput() throws {
        try #require(
            Self.installed, "CI must have sarif-tools: `make test` installs it into .build/sarif-tools")
        let tree = try TemporaryTree([
            "Feed.swift": leakyFeed,
            "Café/Player.swift": """
            final class Player {
                init(center: NotificationCenter) {
                    _ = center.addObserver(forName: .didEnd, object: nil, queue: nil) { _ in }
                    model.$name.sink { self.title = $0 }.store(in: &cancellables)
                }
                var cancellables = Set<AnyCancellable>()
                var title = ""
            }
            """,
        ])
        // The lab's leaky twins too: seven kinds of finding.
        let paths = [tree.path, packageRoot + "/Sources/Lab/Scenarios"]
        let text = try LintBinary.run(["--no-ignores"] + paths, in: tree.path)
        let sarif = try LintBinary.run(["--no-ignores", "--format", "sarif"] + paths, in: tree.path)
        try tree.write("out.sarif", Data(sarif.stdout.utf8))

        let csv = try ChildProcess(
            Self.tool, ["csv", "--output", tree.path + "/out.csv", tree.path + "/out.sarif"]
        )
        .finish()
        #expect(csv.status == 0, "\(csv.stderr)")
        let rows = CSV.rows(try tree.read("out.csv"))
        #expect(rows.first == ["Tool", "Severity", "Code", "Description", "Location", "Line"])
        // sarif-tools prints the URIs as they are: relative ones percent-encoded, absolute ones file://.
        let consumed = rows.dropFirst().map { row in
            let uri = row[4].hasPrefix("file://") ? String(row[4].dropFirst(7)) : row[4]
            return "\(uri.removingPercentEncoding ?? uri):\(row[5]) \(row[2])"
        }.sorted()
        let printed = text.stdout.split(separator: "\n").map { line -> String in
            let parts = line.split(separator: ":", maxSplits: 3)
            let rule = line.split(separator: "(").last!.dropLast()
            return "\(parts[0]):\(parts[1]) \(rule)"
        }.sorted()
        #expect(consumed.count == 15, "13, and the observation scenario's two")
        #expect(consumed == printed)

        let summary = try ChildProcess(Self.tool, ["summary", tree.path + "/out.sarif"]).finish()
        #expect(summary.stdout.contains("warning: \(printed.count)"), "\(summary.stdout)")
    }
}

/// Just enough CSV for sarif-tools' output: quoted fields with commas and doubled quotes.
enum CSV {
    static func rows(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            index += 1
            if quoted {
                if character != "\"" {
                    field.append(character)
                } else if index < characters.count, characters[index] == "\"" {
                    field.append("\"")
                    index += 1
                } else {
                    quoted = false
                }
                continue
            }
            switch character {
            case "\"": quoted = true
            case ",":
                row.append(field)
                field = ""
            case "\n", "\r\n":
                row.append(field)
                rows.append(row)
                (row, field) = ([], "")
            case "\r": break
            default: field.append(character)
            }
        }
        if !field.isEmpty || !row.isEmpty { rows.append(row + [field]) }
        return rows
    }
}
