import Foundation
import Testing
import TetherLint

@Suite struct RunTests {
    @Test func findsSwiftFilesRecursivelySkippingBuildFolders() throws {
        let tree = try TemporaryTree([
            "Sources/B.swift": "", "Sources/A/A.swift": "", "Sources/notes.md": "",
            ".build/checkouts/X.swift": "", "Sources/.build-tsan/Y.swift": "", ".git/Z.swift": "",
        ])
        let files = try LintRun.files(in: ["."], workingDirectory: tree.path)
        #expect(files.map(\.displayPath) == ["Sources/A/A.swift", "Sources/B.swift"])
        let again = try LintRun.files(in: ["Sources", "Sources/B.swift"], workingDirectory: tree.path)
        #expect(again.map(\.displayPath) == ["Sources/A/A.swift", "Sources/B.swift"])
    }

    @Test func aMissingPathIsAUsageError() throws {
        let tree = try TemporaryTree()
        #expect(throws: LintRun.PathError(description: "no such file or folder: Nowhere")) {
            try LintRun.files(in: ["Nowhere"], workingDirectory: tree.path)
        }
    }

    @Test func skipsBinaryAndNonUTF8FilesAndSortsFindingsByFileAndLine() async throws {
        let tree = try TemporaryTree(["b/Feed.swift": leakyFeed, "a/Feed.swift": "\n\n" + leakyFeed])
        try tree.write("a/Binary.swift", Data([0x00, 0x01, 0x02]))
        try tree.write("a/Latin1.swift", Data([0x63, 0x61, 0x66, 0xE9, 0x0A]))
        let files = try LintRun.files(in: ["."], workingDirectory: tree.path)
        let outcome = await LintRun.run(files, linter: Linter())
        #expect(outcome.skipped.map(\.path) == ["a/Binary.swift", "a/Latin1.swift"])
        #expect(outcome.skipped.map(\.reason) == ["binary", "not UTF-8 text"])
        #expect(outcome.findings.map { "\($0.file):\($0.line)" } == ["a/Feed.swift:7", "b/Feed.swift:5"])
        #expect(outcome.files == 2)
    }

    @Test func fixRewritesTheFileAndReportsWhatItChanged() async throws {
        let tree = try TemporaryTree(["Feed.swift": leakyFeed])
        let files = try LintRun.files(in: ["."], workingDirectory: tree.path)
        let outcome = await LintRun.run(files, linter: Linter(), fix: true)
        #expect(outcome.fixed.map(\.rule) == [.unstoredTask])
        #expect(outcome.findings.isEmpty)
        #expect(
            try tree.read("Feed.swift")
                == leakyFeed.replacingOccurrences(
                    of: "{ for await _ in updates {} }",
                    with: "{ for await _ in updates {} }.store(in: &cancellables)"))
    }
}
