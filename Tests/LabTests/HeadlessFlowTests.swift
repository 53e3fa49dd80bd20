import Foundation
import TerminalUI
import Testing
import Tether

@testable import Lab

/// Whole-lab flows on the in-memory backend, through the same keys a user presses, proved on
/// state: the dump, the stack, the inspector's model. What the frame says is `LabScreenTests`'.
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
        let notes = lab.environment.ledger.snapshotRearmingOnChange().events.filter { $0.kind == .note }
            .compactMap(\.message)
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
        let notes = lab.environment.ledger.snapshotRearmingOnChange().events.compactMap(\.message)
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
        #expect(try lab.topScreen(as: HelpScreen.self).text == KeyMap.bundled.helpText)
        await lab.press(.character("?"))
        #expect(lab.dump().stack == ["home", "fake"])
        await lab.run(try KeyScript.parse("? Down Down PageDown Esc"))
        #expect(lab.dump().stack == ["home", "fake"])
    }

    /// `i` hides the inspector and shows it again, fed with the ledger: the sheet's owner, alive.
    @Test func iHidesAndShowsTheInspector() async throws {
        let lab = try await runLab("1")
        let owners = { lab.lab.inspector.snapshot.owners.map { "\($0.id) \($0.state.rawValue)" } }
        #expect(lab.lab.showsInspector)
        #expect(owners() == ["FakeViewModel#1 alive"])
        await lab.press(.character("i"))
        #expect(!lab.lab.showsInspector)
        await lab.press(.character("i"))
        #expect(lab.lab.showsInspector)
        #expect(owners() == ["FakeViewModel#1 alive"])
    }

    /// The inspector keeps the counters from before the last change, for the change it shows
    /// beside each; frames without a change keep them.
    @Test func theInspectorKeepsTheCountersBeforeTheLastChange() async throws {
        let lab = try await runLab("")
        let inspector = lab.lab.inspector
        await lab.press(.character("1"))
        #expect(inspector.previous?.viewModels == 1)
        #expect(inspector.countersBeforeChange?.viewModels == 0)
        await lab.press(.escape)
        #expect(inspector.previous?.viewModels == 0)
        #expect(inspector.countersBeforeChange?.viewModels == 1)
        await lab.perform(.wait(.milliseconds(400)))
        #expect(inspector.countersBeforeChange?.viewModels == 1, "no change since: the same change shown")
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

    @Test func quitTearsDownFirstAndIgnoresLaterKeys() async throws {
        let lab = try await runLab("1 r q r r")
        #expect(lab.hasQuit)
        #expect(lab.dump().stack == [])
        #expect(lab.dump().orientation == "landscapeLeft", "keys after q are ignored")
        #expect(lab.dump().counters == zeroCounters)
    }

    @Test func keysWorkWhileTheTerminalIsTooSmall() async throws {
        let lab = try await runLab("1", size: Size(width: 60, height: 15))
        #expect(lab.dump().stack == ["home", "fake"])
    }

    @Test func withNoScenariosNothingIsPresented() async throws {
        let lab = try await runLab("1 Enter", scenarios: [])
        #expect(lab.dump().stack == ["home"])
    }
}
