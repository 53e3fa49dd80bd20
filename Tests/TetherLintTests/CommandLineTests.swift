import Foundation
import Testing
import TetherLint

/// The real binary, as a user runs it: exit statuses, one-line errors, the formats, `--fix`.
@Suite struct CommandLineTests {
    @Test func printsFindingsRelativeToTheWorkingDirectoryAndExitsZero() throws {
        let tree = try TemporaryTree(["Sources/Feed.swift": leakyFeed])
        let result = try LintBinary.run([], in: tree.path)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Sources/Feed.swift:5:9: warning: Task's value is discarded"))
        #expect(result.stdout.hasSuffix("(unstored-task)\n"))
        #expect(result.stderr.isEmpty)
    }

    @Test func strictExitsOneWithFindingsAndZeroWithout() throws {
        let tree = try TemporaryTree(["Feed.swift": leakyFeed, "Clean/Clean.swift": "let x = 1\n"])
        #expect(try LintBinary.run(["--strict", "Feed.swift"], in: tree.path).status == 1)
        #expect(try LintBinary.run(["--strict", "Clean"], in: tree.path).status == 0)
        #expect(
            try LintBinary.run(["--strict", "--rules", "foreign-bag,task-in-sink"], in: tree.path).status == 0
        )
    }

    @Test func badUsageIsOneLineOnStderrAndExitTwo() throws {
        let tree = try TemporaryTree(["Feed.swift": leakyFeed])
        for arguments in [
            ["--frobnicate"], ["--rules", "unstored-tasks"], ["Missing.swift"], ["--format", "xml"],
        ] {
            let result = try LintBinary.run(arguments, in: tree.path)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments)")
            #expect(result.stderr.hasPrefix("tether-lint: "), "\(arguments): \(result.stderr)")
            #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(arguments): \(result.stderr)")
        }
        let unknown = try LintBinary.run(["--rules", "unstored-tasks"], in: tree.path)
        #expect(unknown.stderr.contains("unknown rule 'unstored-tasks'"))
        #expect(
            try LintBinary.run(["Missing.swift"], in: tree.path).stderr
                == "tether-lint: no such file or folder: Missing.swift\n")
    }

    @Test func helpExitsZero() throws {
        let result = try LintBinary.run(["--help"], in: "/")
        #expect(result.status == 0)
        #expect(result.stdout.contains("--no-ignores"))
        #expect(result.stdout.contains("unowned-self-publisher"))
    }

    @Test func jsonAndSarifCarryTheSameFindings() throws {
        let tree = try TemporaryTree(["Feed.swift": leakyFeed, "Two.swift": "\n" + leakyFeed])
        let json = try LintBinary.run(["--format", "json"], in: tree.path)
        let entries = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(entries?.compactMap { $0["file"] as? String } == ["Feed.swift", "Two.swift"])
        let sarif = try LintBinary.run(["--format", "sarif"], in: tree.path)
        let log = try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any]
        let results = (log?["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]
        #expect(results?.count == 2)
    }

    @Test func fixPrintsEachChangeAndLeavesNothingToFix() throws {
        let tree = try TemporaryTree(["Feed.swift": leakyFeed])
        let result = try LintBinary.run(["--fix", "--strict"], in: tree.path)
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "Feed.swift:5:9: fixed: store it in Feed's cancellables: .store(in: &cancellables) (unstored-task)\n"
        )
        #expect(try tree.read("Feed.swift").contains("}.store(in: &cancellables)"))
    }

    @Test func skipsABinaryFileWithANoteAndReportsAFileThatDoesNotParse() throws {
        let tree = try TemporaryTree(["Broken.swift": "final class {\n"])
        try tree.write("Image.swift", Data([0x89, 0x50, 0x4E, 0x47, 0x00]))
        let result = try LintBinary.run(["--strict"], in: tree.path)
        #expect(result.status == 1)
        #expect(result.stderr == "tether-lint: skipped Image.swift: binary\n")
        #expect(result.stdout.hasPrefix("Broken.swift:1:"))
        #expect(result.stdout.hasSuffix("(parse-error)\n"))
    }
}
