import Foundation
import Testing
import TetherLint

@Suite struct FormatTests {
    let findings = [
        Finding(
            file: "Sources/App/Feed.swift", line: 12, column: 9, rule: .unstoredTask,
            message: "Task's value is discarded", fix: "store it: .store(in: &cancellables)"),
        Finding(
            file: "Sources/App/Café View.swift", line: 3, column: 14, rule: .discardedObserver,
            message: "token discarded",
            utf16Column: 13),
    ]

    @Test func textIsOneCompilerStyleLinePerFinding() {
        #expect(
            Format.text.render(findings) == """
                Sources/App/Feed.swift:12:9: warning: Task's value is discarded (unstored-task)
                Sources/App/Café View.swift:3:14: warning: token discarded (discarded-observer)

                """)
        #expect(Format.text.render([]) == "")
    }

    @Test func jsonIsAnArrayOfTheSixFields() throws {
        let data = Data(Format.json.render(findings).utf8)
        let array = try #require(JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(array.count == 2)
        #expect(Set(array[0].keys) == ["file", "line", "column", "rule", "message", "fix"])
        #expect(array[0]["file"] as? String == "Sources/App/Feed.swift")
        #expect(array[0]["line"] as? Int == 12)
        #expect(array[0]["column"] as? Int == 9)
        #expect(array[0]["rule"] as? String == "unstored-task")
        #expect(array[0]["fix"] as? String == "store it: .store(in: &cancellables)")
        #expect(array[1]["fix"] is NSNull)
        #expect(Format.json.render([]).trimmingCharacters(in: .whitespacesAndNewlines) == "[\n\n]")
    }

    @Test func sarifIsOneRunWithEveryRuleAndRelativeLocations() throws {
        let data = Data(Format.sarif.render(findings).utf8)
        let log = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "tether-lint")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.compactMap { $0["id"] as? String } == RuleID.allCases.map(\.rawValue))
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.compactMap { $0["ruleId"] as? String } == ["unstored-task", "discarded-observer"])
        #expect(results.compactMap { $0["ruleIndex"] as? Int } == [0, 6])
        let location = try #require(
            (results[1]["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
        let artifact = try #require(location["artifactLocation"] as? [String: Any])
        #expect(artifact["uri"] as? String == "Sources/App/Caf%C3%A9%20View.swift")
        #expect(artifact["uriBaseId"] as? String == "%SRCROOT%")
        let region = try #require(location["region"] as? [String: Any])
        #expect(region["startLine"] as? Int == 3)
        #expect(region["startColumn"] as? Int == 13)
        let message = try #require((results[0]["message"] as? [String: Any])?["text"] as? String)
        #expect(message == "Task's value is discarded. Fix: store it: .store(in: &cancellables)")
    }

    @Test func columnsCountBytesForTextAndUTF16ForSARIF() {
        let source = """
            final class Café {
                init() { let é = 1; Task { for await _ in s {} } }
            }
            """
        let finding = Linter(rules: [.unstoredTask]).check(source: source, path: "C.swift").first
        #expect(finding?.column == 26)
        #expect(finding?.utf16Column == 25)
    }
}

@Suite struct IgnoreCommentTests {
    let source = """
        final class Feed {
            init() {
                // tether-lint: ignore unstored-task — the leaky twin of the bound feed
                Task { for await _ in updates {} }
                Task { for await _ in updates {} }  // tether-lint: ignore unstored-task, strong-self-loop — on purpose
                // tether-lint: ignore strong-self-loop — another rule's id silences nothing here
                Task { for await _ in updates {} }

                Task { for await _ in updates {} }
            }
        }
        """

    @Test func silenceTheirRulesOnTheirLineAndTheLineBelow() {
        let findings = Linter(rules: [.unstoredTask]).check(source: source, path: "F.swift")
        #expect(findings.map(\.line) == [7, 9])
    }

    @Test func noIgnoresReportsThemToo() {
        let findings = Linter(rules: [.unstoredTask], honorsIgnores: false).check(
            source: source, path: "F.swift")
        #expect(findings.map(\.line) == [4, 5, 7, 9])
    }
}

@Suite struct ParseErrorTests {
    @Test func aFileThatDoesNotParseIsOneFindingOfItsOwn() {
        let findings = Linter().check(
            source: "final class Feed {\n    init() { Task { for await _ in s {} }\n", path: "Broken.swift")
        #expect(findings.count == 1)
        #expect(findings.first?.rule == .parseError)
        #expect(findings.first?.message.hasPrefix("the file does not parse") == true)
    }

    @Test func anEmptyFileParses() {
        #expect(Linter().check(source: "", path: "Empty.swift").isEmpty)
    }
}
