import Foundation
import TerminalUI
import Testing

@testable import Lab

/// Home's list fits its box: each row names its scenario's pattern; where the pattern comes from
/// goes when space is short, then summaries are cut at a word boundary with an ellipsis — never
/// mid-word.
@MainActor
@Suite struct HomeListTests {
    /// What each scenario's row shows after its title and pattern, in the frame `lab` drew last.
    func shown(in lab: HeadlessLab) throws -> [(Scenario, String)] {
        try Scenarios.all.map { scenario in
            let line = try #require(
                lab.backend.trimmedTextLines.first { $0.contains("\(scenario.number)  \(scenario.title) ") },
                "row \(scenario.number) is visible")
            let box = try #require(line.split(separator: "│").first { $0.contains(scenario.title) })
            let rest = box[box.range(of: scenario.title)!.upperBound...].trimmingCharacters(in: .whitespaces)
            #expect(rest.hasPrefix(scenario.pattern), "row \(scenario.number) names its pattern")
            return (scenario, rest.dropFirst(scenario.pattern.count).trimmingCharacters(in: .whitespaces))
        }
    }

    func expectWholeWords(_ text: String, of scenario: Scenario) {
        if text.hasSuffix("…") {
            let kept = text.dropLast()
            #expect(scenario.summary.hasPrefix(kept), "\(text)")
            let next = scenario.summary.dropFirst(kept.count).first
            #expect(next.map { " ,;:".contains($0) } == true, "cut at a word boundary: \(text)")
        } else {
            #expect(text == scenario.summary || text == "\(scenario.summary)  (\(scenario.origin))")
        }
    }

    @Test func summariesAreCutAtWordBoundariesBesideTheInspector() async throws {
        let lab = try await runLab("", scenarios: Scenarios.all, size: Size(width: 120, height: 40))
        let rows = try shown(in: lab)
        for (scenario, text) in rows { expectWholeWords(text, of: scenario) }
        #expect(rows.contains { $0.1.hasSuffix("…") }, "120 columns are too few for every summary")
    }

    /// Where a pattern comes from is shown only after a whole summary; cut summaries lose it.
    @Test func eightyByTwentyFourCutsAtWordsAndTagsOnlyWhatFits() async throws {
        let lab = try await runLab("", scenarios: Scenarios.all, size: Size(width: 80, height: 24))
        for (scenario, text) in try shown(in: lab) { expectWholeWords(text, of: scenario) }
    }

    @Test func aWideHomeShowsWhereEachPatternComesFrom() async throws {
        let lab = try await runLab("i", scenarios: Scenarios.all, size: Size(width: 200, height: 40))
        for (scenario, text) in try shown(in: lab) {
            #expect(text == "\(scenario.summary)  (\(scenario.origin))")
        }
    }

    @Test func noRowSpeaksOfSeeds() async throws {
        let lab = try await runLab("i", scenarios: Scenarios.all, size: Size(width: 200, height: 40))
        #expect(!lab.screenText.lowercased().contains("seed"))
        #expect(!KeyMap.bundled.helpText.lowercased().contains("seed"))
    }

    @Test func summariesLineUpAfterTheLongestTitle() async throws {
        let lab = try await runLab("", scenarios: Scenarios.all, size: Size(width: 80, height: 24))
        let columns = Set(
            try Scenarios.all.map { scenario in
                let line = try #require(
                    lab.backend.trimmedTextLines.first { $0.contains(scenario.summary.prefix(12)) })
                return line.distance(
                    from: line.startIndex, to: line.range(of: scenario.summary.prefix(12))!.lowerBound)
            })
        #expect(columns.count == 1)
    }

    @Test func truncationKeepsWholeWords() {
        #expect(HomeScreen.truncated("one two three", toWidth: 13, ellipsis: "…") == "one two three")
        #expect(HomeScreen.truncated("one two three", toWidth: 12, ellipsis: "…") == "one two…")
        #expect(HomeScreen.truncated("one two; three", toWidth: 12, ellipsis: "…") == "one two…")
        #expect(HomeScreen.truncated("one two three", toWidth: 9, ellipsis: "...") == "one...")
        #expect(HomeScreen.truncated("unbreakable", toWidth: 5, ellipsis: "…") == "unbr…")
        #expect(HomeScreen.truncated("one two", toWidth: 1, ellipsis: "…") == "")
        #expect(HomeScreen.truncated("one two", toWidth: 0, ellipsis: "…") == "")
    }
}
