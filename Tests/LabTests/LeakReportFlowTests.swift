import Foundation
import TerminalUI
import Testing
import Tether

@testable import Lab

/// Issue 15.5 through the lab's own keys: Tab gives the inspector the keys, ↑/↓ select a leak,
/// Enter opens its report as a sheet over everything; the leak list groups leaks of one shape.
@MainActor
@Suite struct LeakReportFlowTests {
    /// Leaky Orientation presented and dismissed `times` times, each past its grace period.
    func leakyOrientation(_ times: Int) -> String {
        "m " + Array(repeating: "1 r Esc wait:400", count: times).joined(separator: " ") + " r"
    }

    @Test func tabThenEnterOpensTheSelectedLeaksReport() async throws {
        let lab = try await runLab(leakyOrientation(1) + " Tab Enter", scenarios: Scenarios.all)
        #expect(lab.dump().stack == ["home", "report"])
        let group = try lab.topScreen(as: LeakReportScreen.self).group
        #expect(group.leaks.map(\.owner.description) == ["OrientationViewModel#1"])
        let report = try #require(group.leaks.first?.report)
        let site = try scenarioSite(
            containing: "Task.attributed(to: lifetime)", in: "Orientation/OrientationViewModel.swift")
        #expect(report.survivors.map(\.kind) == [.task])
        #expect(report.culprit?.site.description == site)
        #expect(report.culprit?.bound == false, "not bound to its owner")
        await lab.press(.escape)
        #expect(lab.dump().stack == ["home"])
        #expect(lab.lab.inspectorHasFocus, "closing the report leaves the keys with the inspector")
    }

    @Test func leaksOfOneShapeAreOneLineWithACount() async throws {
        let lab = try await runLab(leakyOrientation(3), scenarios: Scenarios.all)
        #expect(lab.dump().leaks.count == 3)
        #expect(lab.lab.inspector.content.groups.map(\.count) == [3])
    }

    /// While the inspector has the keys, ↑/↓ are its own: home's selection stays; Tab gives
    /// them back, and ↓ moves home's selection again.
    @Test func theInspectorTakesTheArrowsUntilTabGivesThemBack() async throws {
        let scenarios = [FakeScenario.make(number: 1, id: "one"), FakeScenario.make(number: 2, id: "two")]
        let lab = try await runLab("Tab Down Down", scenarios: scenarios)
        #expect(lab.lab.inspectorHasFocus)
        await lab.press(.enter)
        #expect(lab.dump().stack == ["home"], "Enter was the inspector's, with nothing to open")
        await lab.press(.tab)
        #expect(!lab.lab.inspectorHasFocus)
        await lab.press(.down)
        await lab.press(.enter)
        #expect(lab.dump().stack == ["home", "two"])
    }

    /// A hidden panel is not drawn, so it is not fed: Tab, which shows it, feeds it before it
    /// selects a row — the leak found while it was hidden, not a row from before.
    @Test func tabOnAHiddenInspectorSelectsFromTheLedgerAsItIsNow() async throws {
        let lab = try await runLab("i " + leakyOrientation(1) + " Tab Enter", scenarios: Scenarios.all)
        #expect(lab.dump().stack == ["home", "report"])
        let group = try lab.topScreen(as: LeakReportScreen.self).group
        #expect(group.leaks.map(\.owner.description) == ["OrientationViewModel#1"])
        #expect(group.leaks.first?.report != nil)
    }

    @Test func hidingTheInspectorGivesTheKeysBack() async throws {
        let lab = try await runLab("Tab i")
        #expect(!lab.lab.inspectorHasFocus)
        await lab.press(.tab)
        #expect(lab.lab.showsInspector && lab.lab.inspectorHasFocus, "Tab shows it again")
        await lab.press(.escape)
        #expect(!lab.lab.inspectorHasFocus, "Esc gives the keys back")
    }
}
