import Foundation
import TerminalUI
import Testing
import Tether

@testable import Lab

/// What the user reads in the lab's frame around the sheets: home's rows, the header's mode, the
/// inspector's leak rows and focus, a leak report. The flows behind them are proved on state by
/// `HeadlessFlowTests` and `LeakReportFlowTests`; these tests prove only the words.
@MainActor
@Suite struct LabScreenTests {
    /// Each row of the last frame cut at its box edges: the text of each pane, trimmed.
    func panes(_ lab: HeadlessLab) -> [[String]] {
        lab.backend.trimmedTextLines.map { line in
            line.split(separator: "│").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }

    @Test func homeListsEachScenarioByDigitTitlePatternAndSummary() async throws {
        let lab = try await runLab("")
        #expect(panes(lab).contains { $0.first == "> 1  Fake 1  a fake  a test double  (from the tests)" })
    }

    @Test func theFrameDrawsTheTopSheetUntilItIsDismissed() async throws {
        let lab = try await runLab("1")
        #expect(
            try lab.sheetText() == SheetText(title: "Fake 1 (bound)", lines: ["Fake sheet: values 1 ticks 0"])
        )
        #expect(panes(lab).contains { $0.first == "Fake sheet: values 1 ticks 0" })
        await lab.press(.escape)
        #expect(!lab.screenText.contains("Fake sheet"))
    }

    @Test func theHeaderSaysTheModeForTheNextSheetAndTheTopSheetsOwn() async throws {
        let lab = try await runLab("m")
        #expect(lab.backend.trimmedTextLines[0] == "   ╭•╮    Tether Lab   orientation portrait   mode leaky")
        await lab.run(try KeyScript.parse("1 m"))
        #expect(
            lab.backend.trimmedTextLines[0]
                == "   ╭•╮    Tether Lab   orientation portrait   mode bound (this sheet: leaky)")
    }

    /// While a filter is typed every character goes into it, so the footer shows the filter's
    /// keys alone; Tab keeps the filter and gives the keys back.
    @Test func typingAFilterShowsOnlyTheKeysThatWork() async throws {
        let lab = try await runLab("Tab / q m")
        #expect(lab.backend.trimmedTextLines.last == "Enter keep  Esc clear")
        #expect(lab.dump().stack == ["home"] && lab.dump().mode == "bound", "q and m were typed")
        await lab.run(try KeyScript.parse("Tab r"))
        #expect(lab.dump().orientation == "landscapeLeft", "Tab gave the keys back: r rotates")
        #expect(lab.screenText.contains("filter: qm  (/ edits, Esc clears)"))
        #expect(lab.backend.trimmedTextLines.last?.hasSuffix("? help  q quit") == true)
    }

    @Test func leaksOfOneShapeAreOneRowWithACount() async throws {
        let lab = try await runLab(
            "m 1 r Esc wait:400 1 r Esc wait:400 1 r Esc wait:400 r", scenarios: Scenarios.all)
        let texts = panes(lab).flatMap { $0 }
        #expect(texts.contains("Leaks: 3 in 1 group"))
        #expect(texts.contains("OrientationViewModel ← task OrientationViewMod… ×3"))
    }

    @Test func aFocusedInspectorSaysItHasTheKeys() async throws {
        let lab = try await runLab("Tab")
        #expect(lab.backend.trimmedTextLines[3].contains("┌ Inspector · keys here (Tab gives them back) ─"))
        #expect(
            lab.backend.trimmedTextLines.last
                == "↑/↓ select  Enter open  ←/→ fold  / filter  Esc back  r rotate  m mode  i inspector  Tab focus  ? help  q quit"
        )
    }

    @Test func aLeakReportReadsAsTheLedgersTrace() async throws {
        let lab = try await runLab("m 1 r Esc wait:400 r Tab Enter", scenarios: Scenarios.all)
        let task = try scenarioSite(
            containing: "Task.attributed(to: lifetime)", in: "Orientation/OrientationViewModel.swift")
        let tracked = try scenarioSite(
            containing: "lifetime.track(self)", in: "Orientation/OrientationViewModel.swift")
        let report = try lab.topScreen(as: LeakReportScreen.self)
        var buffer = Buffer(size: Size(width: 120, height: 12))
        report.render(into: &buffer, area: buffer.area, theme: .standard)
        #expect(buffer.text(row: 0).hasPrefix("┌ Leak report — Esc closes ─"))
        let inner = buffer.linesInsideBox
        #expect(
            inner.prefix(7) == [
                "signature  OrientationViewModel ← task Lab/\(task)",
                "leaks      1 of this shape: OrientationViewModel#1",
                "",
                "OrientationViewModel#1 leaked: alive 300ms after its end (tracked at \(tracked))",
                "╰─ task at \(task), not bound to its owner",
                "   2 values delivered, 1 after the end",  // the rotation after the verdict: a zombie
                "   fix: store the task in the owner's bag (`.store(in: bag)`, or start it with `bag.task { }`)",
            ])
        #expect(inner.dropFirst(7).allSatisfy { $0.isEmpty })
        var narrow = Buffer(size: Size(width: 60, height: 14))
        report.render(into: &narrow, area: narrow.area, theme: .standard)
        let rows = narrow.linesInsideBox
        let fix = try #require(rows.firstIndex { $0.hasPrefix("   fix: ") })
        #expect(
            rows[fix...].prefix(3) == [
                "   fix: store the task in the owner's bag (`.store(in:",
                "   bag)`, or start it with `bag.task { }`)",
                "",
            ], "a wrapped row keeps the tree's indent")
        #expect(
            lab.backend.trimmedTextLines.last
                == "↑/↓ scroll  Esc close  r rotate  m mode  i inspector  Tab focus  ? help  q quit",
            "the footer says how to close it")
    }

    /// Attach's help in its smallest terminal: a paragraph fills the overlay's rows instead of
    /// breaking where the source text was wrapped, and an entry's rows hang under its text.
    @Test func theHelpIsReflowedToANarrowOverlay() throws {
        let help = HelpScreen(text: KeyMap.bundled.attachHelpText, ledger: Ledger(isEnabled: false))
        var buffer = Buffer(size: Size(width: AttachApp.minimumSize.width, height: 60))
        help.render(into: &buffer, area: buffer.area, theme: .standard)
        let rows = buffer.trimmedTextLines.map {
            String($0.dropFirst(2).reversed().drop { $0 == "│" || $0 == " " }.reversed())
        }
        let first = try #require(rows.firstIndex { $0.hasPrefix("Watches the ledger") })
        #expect(rows[first + 1] == "subscription, task, observer and binding it made through")
        let counters = try #require(rows.firstIndex { $0.hasPrefix("  Counters") })
        #expect(rows[counters + 1].hasPrefix(String(repeating: " ", count: 13) + "(two-way bindings"))
    }
}
