import Foundation
import TerminalUI
import Testing
import Tether

@testable import Lab

/// Whole-lab flows on the in-memory backend, through the same keys a user presses.
@MainActor
@Suite struct HeadlessFlowTests {
    @Test func homeStartsAtBaselineWithNothingBound() {
        let lab = HeadlessLab(scenarios: [FakeScenario.make()])
        let dump = lab.dump()
        #expect(dump.stack == ["home"])
        #expect(dump.mode == "bound")
        #expect(dump.orientation == "portrait")
        #expect(dump.counters == zeroCounters)
    }

    @Test func digitPresentsAndEscDismisses() async throws {
        let lab = try await runLab("1")
        #expect(lab.dump().stack == ["home", "fake"])
        #expect(lab.topSheet?.scenario.id == "fake")
        await lab.press(.escape)
        #expect(lab.dump().stack == ["home"])
        #expect(lab.topSheet == nil)
        let notes = lab.environment.ledger.snapshot().events.filter { $0.kind == .note }.compactMap(\.message)
        #expect(notes == ["presented fake (bound)", "dismissed fake"])
    }

    @Test func arrowsAndEnterPresentTheSelectedScenario() async throws {
        let scenarios = [FakeScenario.make(number: 1, id: "one"), FakeScenario.make(number: 2, id: "two")]
        #expect(try await runLab("Down Enter", scenarios: scenarios).dump().stack == ["home", "two"])
        #expect(try await runLab("j j k Enter", scenarios: scenarios).dump().stack == ["home", "one"])
        #expect(try await runLab("2", scenarios: scenarios).dump().stack == ["home", "two"])
        #expect(try await runLab("7 Esc Esc", scenarios: scenarios).dump().stack == ["home"])
    }

    @Test func rotateCyclesTheOrientationAndNotesIt() async throws {
        let lab = try await runLab("r")
        #expect(lab.dump().orientation == "landscapeLeft")
        await lab.run(try KeyScript.parse("r r"))
        #expect(lab.dump().orientation == "landscapeRight")
        await lab.press(.character("r"))
        #expect(lab.dump().orientation == "portrait")
        let notes = lab.environment.ledger.snapshot().events.compactMap(\.message)
        #expect(notes.first == "rotated → landscapeLeft")
    }

    @Test func modeTogglesForTheNextSheet() async throws {
        let lab = try await runLab("m")
        #expect(lab.dump().mode == "leaky")
        await lab.run(try KeyScript.parse("1 m"))
        #expect(lab.dump().mode == "bound")
        #expect(lab.topSheet?.mode == .leaky, "the sheet keeps the mode it was presented in")
    }

    @Test func helpOpensOverTheStackAndCloses() async throws {
        let lab = try await runLab("1 ?")
        #expect(lab.dump().stack == ["home", "fake", "help"])
        #expect(lab.screenText.contains("Help"))
        #expect(lab.screenText.contains("Rotate the device"))
        await lab.press(.character("?"))
        #expect(lab.dump().stack == ["home", "fake"])
        await lab.run(try KeyScript.parse("? Down Down PageDown Esc"))
        #expect(lab.dump().stack == ["home", "fake"])
    }

    @Test func inspectorShowsAndHides() async throws {
        let lab = try await runLab("1")
        #expect(lab.screenText.contains("Inspector"))
        #expect(lab.screenText.contains("FakeViewModel#1 alive"))
        await lab.press(.character("i"))
        #expect(!lab.screenText.contains("Inspector"))
        await lab.press(.character("i"))
        #expect(lab.screenText.contains("Inspector"))
    }

    @Test func inspectorShowsTheChangeSinceTheLastFrame() async throws {
        let lab = try await runLab("")
        await lab.press(.character("1"))
        let row = try #require(lab.backend.trimmedTextLines.first { $0.contains("view models") })
        #expect(row.contains("1 +1"))
        await lab.press(.escape)
        await lab.advance(by: .milliseconds(400))
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

    @Test func waitRunsClockDrivenWorkInOrder() async throws {
        let lab = try await runLab("1 wait:200")
        let screen = try #require(lab.lab.application.stack.screens.last)
        #expect(screen.id == "fake")
        #expect(try lab.viewModel(as: FakeViewModel.self).ticks == 4)
        #expect(lab.environment.clock.now == .milliseconds(200))
    }

    @Test func leakyLeakIsReportedOnlyAfterTheGracePeriod() async throws {
        let lab = try await runLab("m 1 Esc wait:290")
        #expect(lab.dump().counters.leaks == 0)
        await lab.run(try KeyScript.parse("wait:20"))
        #expect(lab.dump().counters.leaks == 1)
        #expect(lab.dump().leaks.first?.kind == "subscription")
    }

    @Test func jsonHasExactlyTheDesignsShape() async throws {
        let lab = try await runLab("m 1 r Esc wait:400 1")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(lab.json().utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["orientation", "stack", "mode", "counters", "leaks", "growth"])
        #expect(object["orientation"] as? String == "landscapeLeft")
        #expect(object["stack"] as? [String] == ["home", "fake"])
        #expect(object["mode"] as? String == "leaky")
        let counters = try #require(object["counters"] as? [String: Int])
        #expect(
            Set(counters.keys) == ["viewModels", "subscriptions", "tasks", "observers", "leaks", "zombies"])
        let leaks = try #require(object["leaks"] as? [[String: String]])
        #expect(leaks.count == 1)
        #expect(Set(leaks[0].keys) == ["owner", "kind", "site"])
        #expect(leaks[0]["owner"] == "FakeViewModel#1")
        #expect(leaks[0]["site"]?.hasPrefix("FakeScenario.swift:") == true)
        #expect((object["growth"] as? [Any])?.isEmpty == true)
        let decoded = try JSONDecoder().decode(LabDump.self, from: Data(lab.json().utf8))
        #expect(decoded == lab.dump())
    }

    @Test func jsonIsStableTextWithSortedKeys() async throws {
        let json = try await runLab("").json()
        let keys = json.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  \""), !line.hasPrefix("   ") else { return nil }
            return String(line.dropFirst(3).prefix { $0 != "\"" })
        }
        #expect(keys == ["counters", "growth", "leaks", "mode", "orientation", "stack"])
    }

    @Test func quitTearsDownFirstAndKeepsTheLastFrame() async throws {
        let lab = try await runLab("1 r q r r")
        #expect(lab.hasQuit)
        #expect(lab.dump().stack == [])
        #expect(lab.dump().orientation == "landscapeLeft", "keys after q are ignored")
        #expect(lab.screenText.contains("Fake sheet"))
        #expect(lab.dump().counters == zeroCounters)
    }

    @Test func tooSmallShowsHowBigItMustBe() async throws {
        let lab = try await runLab("1", size: Size(width: 60, height: 15))
        #expect(lab.screenText.contains("needs 80×24, have 60×15"))
        #expect(lab.dump().stack == ["home", "fake"], "keys still work")
    }

    @Test func narrowTerminalPutsTheInspectorBelow() async throws {
        let lab = try await runLab("1", size: Size(width: 80, height: 24))
        let lines = lab.backend.trimmedTextLines
        let sheet = try #require(lines.firstIndex { $0.contains("Fake 1 (bound)") })
        let inspector = try #require(lines.firstIndex { $0.contains("Inspector") })
        #expect(inspector > sheet)
    }

    @Test func footerShowsTheKeysThatWorkHere() async throws {
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

    @Test func noScenariosSaysSo() async throws {
        let lab = try await runLab("1 Enter", scenarios: [])
        #expect(lab.screenText.contains("No scenarios yet."))
        #expect(lab.dump().stack == ["home"])
    }
}
