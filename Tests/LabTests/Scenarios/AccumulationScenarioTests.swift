import Foundation
import TerminalUI
import Testing
import Tether

@testable import Lab

/// Scenario 7: a sheet that stores its subscription in a long-lived session's bag. Leaky, no
/// verdict ever falls — the session never ends — but every visit leaves one more subscription in
/// it, and the checkpoint the screen stack makes at each dismissal finds the site growing.
@MainActor
@Suite struct AccumulationScenarioTests {
    /// Presents and dismisses the accumulation sheet `times` times, then lets the grace period pass.
    static func visits(_ times: Int) -> String {
        Array(repeating: "7 r Esc", count: times).joined(separator: " ") + " wait:400"
    }

    func leakySite() throws -> String {
        try scenarioSite(
            containing: "subscription.store(in: session.bag)",
            in: "Accumulation/AccumulationViewModel.swift")
    }

    @Test func threeLeakyVisitsGrowOneSiteAndLeakNothing() async throws {
        let lab = try await runLab("m " + Self.visits(3), scenarios: Scenarios.all)
        let dump = lab.dump()
        #expect(
            dump.growth == [
                LabDump.Growth(owner: "AppSession#1", kind: "subscription", site: try leakySite(), live: 3)
            ])
        #expect(dump.leaks.isEmpty)
        #expect(dump.counters.leaks == 0)
        #expect(dump.counters.viewModels == 1, "the session alone: every sheet's view model went")
        #expect(dump.counters.subscriptions == 3)
        #expect(dump.stack == ["home"])
    }

    @Test func twoLeakyVisitsAreNotEnough() async throws {
        let lab = try await runLab("m " + Self.visits(2), scenarios: Scenarios.all)
        #expect(lab.dump().growth.isEmpty)
        #expect(lab.dump().counters.subscriptions == 2)
    }

    @Test func fiveLeakyVisitsGrowTheSameSiteToFive() async throws {
        let lab = try await runLab("m " + Self.visits(5), scenarios: Scenarios.all)
        #expect(lab.dump().growth.map(\.live) == [5])
        #expect(lab.dump().growth.map(\.site) == [try leakySite()])
        #expect(lab.environment.ledger.snapshot().growth.first?.counts == [3, 4, 5])
        #expect(lab.dump().leaks.isEmpty)
    }

    @Test func boundVisitsGrowNothingAndLeakNothing() async throws {
        let lab = try await runLab(Self.visits(3), scenarios: Scenarios.all)
        let dump = lab.dump()
        #expect(dump.growth.isEmpty)
        #expect(dump.leaks.isEmpty)
        #expect(dump.counters.subscriptions == 0)
        #expect(dump.counters.viewModels == 1, "the session lives on, holding nothing")
    }

    /// Bound visits after leaky ones leave the session's count flat: the growth stops at the
    /// first of them.
    @Test func boundVisitsAfterLeakyOnesStopTheGrowth() async throws {
        let lab = try await runLab("m " + Self.visits(3), scenarios: Scenarios.all)
        #expect(lab.dump().growth.count == 1)
        await lab.run(try KeyScript.parse("m " + Self.visits(3)))
        #expect(lab.dump().growth.isEmpty)
        #expect(lab.dump().leaks.isEmpty)
        #expect(lab.dump().counters.subscriptions == 3, "what the leaky visits left is still there")
    }

    /// Opening and closing help between visits is not a visit: the growth is still found.
    @Test func closingHelpBetweenVisitsIsNotARepetition() async throws {
        let lab = try await runLab("m 7 Esc 7 Esc ? Esc 7 Esc", scenarios: Scenarios.all)
        #expect(lab.dump().growth.map(\.live) == [3])
    }

    /// A leak is judged when its owner ends, growth only under an owner that lives: three leaky
    /// orientation sheets are three leaks and no growth.
    @Test func leakyOrientationThreeTimesIsThreeLeaksAndNoGrowth() async throws {
        let lab = try await runLab("m 1 Esc wait:400 1 Esc wait:400 1 Esc wait:400", scenarios: Scenarios.all)
        #expect(lab.dump().leaks.count == 3)
        #expect(lab.dump().growth.isEmpty)
    }

    /// The session ends with the lab: after `q` every counter is back to 0, leaky or not.
    @Test func quittingLetsTheSessionGo() async throws {
        let lab = try await runLab("m " + Self.visits(3) + " q", scenarios: Scenarios.all)
        #expect(lab.hasQuit)
        #expect(lab.dump().counters == zeroCounters)
        #expect(lab.dump().leaks.isEmpty)
    }

    /// The view model itself goes either way: the weak capture keeps it out of the session's bag.
    @Test func theViewModelGoesInBothModes() async throws {
        for mode in ["", "m "] {
            let lab = try await runLab(mode + "7", scenarios: Scenarios.all)
            weak let model =
                try #require(lab.lab.application.stack.top as? ScenarioSheet).content
                as? AccumulationViewModel
            #expect(model != nil)
            await lab.run(try KeyScript.parse("Esc wait:400"))
            #expect(model == nil, "\(mode.isEmpty ? "bound" : "leaky")")
        }
    }

    // MARK: Screens

    /// The sheet says what it teaches and that it takes three visits; its status counts what the
    /// session holds.
    @Test func theSheetSaysItTakesThreeVisits() async throws {
        let lab = try await runLab("m 7 Esc 7", scenarios: Scenarios.all)
        let text = lab.screenText
        #expect(text.contains("Accumulation (leaky)"))
        #expect(text.contains(".store(in: session.bag)"))
        #expect(text.contains(".store(in: &session.cancellables)"))
        #expect(text.contains("three visits"))
        #expect(text.contains("subscription stored in AppSession#1's bag"))
        #expect(text.contains("the session's bag holds 2 subscriptions from these sheets"))
    }

    /// The inspector lists the growing site above the leaks, and Enter on it opens its report.
    @Test func theInspectorShowsTheGrowingSiteAndOpensItsReport() async throws {
        // Wide enough for the whole line beside home.
        let lab = try await runLab(
            "m " + Self.visits(3), scenarios: Scenarios.all, size: Size(width: 200, height: 40))
        let site = try leakySite()
        var lines = lab.backend.trimmedTextLines
        let growing = try #require(lines.firstIndex { $0.contains("Growing: 1 site") })
        let leaks = try #require(lines.firstIndex { $0.contains("Leaks: none") })
        #expect(growing < leaks, "Growing comes above the leaks")
        #expect(lines[growing + 1].contains("AppSession#1 ← \(site) 3 live +1/rep"), "\(lines[growing + 1])")
        await lab.run(try KeyScript.parse("Tab Enter"))
        #expect(lab.dump().stack == ["home", "growth-report"])
        lines = lab.backend.trimmedTextLines
        #expect(lines.contains { $0.contains("Growth report") })
        #expect(lines.contains { $0.contains("AppSession#1 grows: 3 subscriptions at \(site)") })
        #expect(lines.contains { $0.contains("fix:") })
        await lab.run(try KeyScript.parse("Esc"))
        #expect(lab.dump().stack == ["home"])
        #expect(lab.dump().growth.count == 1, "closing the report is not a repetition")
    }
}
