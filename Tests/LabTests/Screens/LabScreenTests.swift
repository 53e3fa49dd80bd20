import Foundation
import TerminalUI
import Testing
import Tether

@testable import Lab

/// What the user reads in the lab's frame around the sheets: home's rows, the header's mode, the
/// footer's keys, the inspector's counters, growing sites, leak rows and focus, a leak or growth
/// report, help, and where the frame puts each. The flows behind them are proved on state by
/// `HeadlessFlowTests`, `LeakReportFlowTests` and the scenarios' tests; these tests prove only
/// the words.
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
                "   fix: store the task in the owner's bag (`.store(boundTo: bag)`, or start it with `Task(boundTo: bag) { }`)",
            ])
        #expect(inner.dropFirst(7).allSatisfy { $0.isEmpty })
        var narrow = Buffer(size: Size(width: 60, height: 14))
        report.render(into: &narrow, area: narrow.area, theme: .standard)
        let rows = narrow.linesInsideBox
        let fix = try #require(rows.firstIndex { $0.hasPrefix("   fix: ") })
        #expect(
            Array(rows[fix...]) == [
                "   fix: store the task in the owner's bag",
                "   (`.store(boundTo: bag)`, or start it with",
                "   `Task(boundTo: bag) { }`)",
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

    @Test func theHelpOverlaySaysWhatEachKeyDoes() async throws {
        let lab = try await runLab("1 ?")
        #expect(lab.screenText.contains("Help — ? or Esc closes"))
        #expect(lab.screenText.contains("Rotate the device"))
    }

    @Test func theInspectorListsTheSheetsOwnerUntilIHidesIt() async throws {
        let lab = try await runLab("1")
        #expect(lab.screenText.contains("Inspector"))
        #expect(lab.screenText.contains("FakeViewModel#1 alive"))
        await lab.press(.character("i"))
        #expect(!lab.screenText.contains("Inspector"))
        await lab.press(.character("i"))
        #expect(lab.screenText.contains("Inspector"))
    }

    /// Beside each counter, its change at the last change: still in sight frames later.
    @Test func aCounterShowsItsLastChange() async throws {
        let lab = try await runLab("")
        await lab.press(.character("1"))
        let row = try #require(lab.backend.trimmedTextLines.first { $0.contains("view models") })
        #expect(row.contains("1 +1"))
        await lab.press(.escape)
        await lab.perform(.wait(.milliseconds(400)))
        let after = try #require(lab.backend.trimmedTextLines.first { $0.contains("view models") })
        #expect(after.contains("0 -1"))
    }

    @Test func leaksStandOutInColorOrReverse() async throws {
        for theme in [Theme.standard, .monochrome] {
            let lab = HeadlessLab(scenarios: [FakeScenario.make()], theme: theme)
            await lab.run(try KeyScript.parse("m 1 Esc wait:400 r"))
            let lines = lab.backend.textLines
            let y = try #require(lines.firstIndex { $0.contains("leaks") })
            let x = try #require(
                lines[y].range(of: "leaks").map {
                    lines[y].distance(from: lines[y].startIndex, to: $0.lowerBound)
                })
            let valueX = x + 17  // "leaks" padded to 13, a space, then the value right-aligned in 4
            let style = lab.backend.style(x: valueX, y: y)
            if theme.isMonochrome {
                #expect(style.isReverse && style.isBold && style.foreground == .default)
            } else {
                #expect(style.foreground == .brightRed)
            }
        }
    }

    /// Growing sites come above the leaks, one row each: owner, site, how many live and how many
    /// each visit adds. The report reads as the ledger's trace, with a fix.
    @Test func aGrowingSiteIsARowAboveTheLeaksAndItsReportSaysHowItGrows() async throws {
        // Wide enough for the whole row beside home.
        let lab = try await runLab(
            "m " + AccumulationScenarioTests.visits(3), scenarios: Scenarios.all,
            size: Size(width: 200, height: 40))
        let site = try scenarioSite(
            containing: "subscription.store(boundTo: session.bag)",
            in: "Accumulation/AccumulationViewModel.swift")
        let inspector = panes(lab).compactMap(\.last)
        let growing = try #require(inspector.firstIndex(of: "Growing: 1 site"))
        let leaks = try #require(inspector.firstIndex(of: "Leaks: none"))
        #expect(growing < leaks, "Growing comes above the leaks")
        #expect(inspector[growing + 1] == "AppSession#1 ← \(site) 3 live +1/rep")
        await lab.run(try KeyScript.parse("Tab Enter"))
        let lines = lab.backend.trimmedTextLines
        #expect(lines.contains { $0.contains("Growth report — Esc closes") })
        #expect(lines.contains { $0.contains("AppSession#1 grows: 3 subscriptions at \(site)") })
        #expect(lines.contains { $0.contains("fix:") })
    }

    /// After `q`, the frame before the teardown stays on the terminal: the sheet that was up.
    @Test func theLastFrameBeforeQuittingStays() async throws {
        let lab = try await runLab("1 r q r r")
        #expect(panes(lab).contains { $0.first == "Fake sheet: values 2 ticks 0" })
    }

    @Test func tooSmallSaysHowBigItMustBe() async throws {
        let lab = try await runLab("1", size: Size(width: 60, height: 15))
        #expect(lab.screenText.contains("needs 80×24, have 60×15"))
    }

    @Test func aNarrowTerminalPutsTheInspectorBelowTheSheet() async throws {
        let lab = try await runLab("1", size: Size(width: 80, height: 24))
        let lines = lab.backend.trimmedTextLines
        let sheet = try #require(lines.firstIndex { $0.contains("Fake 1 (bound)") })
        let inspector = try #require(lines.firstIndex { $0.contains("Inspector") })
        #expect(inspector > sheet)
    }

    @Test func theFooterShowsTheKeysThatWorkHere() async throws {
        let lab = try await runLab("")
        let home = try #require(lab.backend.trimmedTextLines.last)
        #expect(home.contains("Enter present") && home.contains("r rotate") && home.contains("q quit"))
        #expect(!home.contains("Esc dismiss"))
        await lab.press(.character("1"))
        let sheet = try #require(lab.backend.trimmedTextLines.last)
        #expect(sheet.hasPrefix("Esc dismiss"))
        let narrow = try await runLab("", size: Size(width: 80, height: 24))
        let footer = try #require(narrow.backend.trimmedTextLines.last)
        #expect(footer.hasSuffix("q quit"), "global keys stay when the footer is short of room")
    }

    @Test func homeWithNoScenariosSaysSo() async throws {
        let lab = try await runLab("", scenarios: [])
        #expect(lab.screenText.contains("No scenarios yet."))
    }
}
