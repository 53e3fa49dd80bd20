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
            containing: "subscription.store(boundTo: session.bag)",
            in: "Accumulation/AccumulationViewModel.swift")
    }

    @Test func threeLeakyVisitsGrowOneSiteAndLeakNothing() async throws {
        let lab = try await runLab("m " + Self.visits(3), scenarios: Scenarios.all)
        let dump = lab.dump()
        #expect(
            dump.growth == [
                LabDump.Growth(
                    owner: "AppSession#1", kind: "subscription", site: try leakySite(), live: 3,
                    scope: "accumulation")
            ])
        #expect(dump.leaks.isEmpty)
        #expect(dump.counters.leaks == 0)
        #expect(dump.counters.viewModels == 1, "the session alone: every sheet's view model went")
        #expect(dump.counters.subscriptions == 3)
        #expect(dump.stack == ["home"])
    }

    /// A plain `.sink` handed over with `store(in:)` delivers out of Tether's sight: the inspector
    /// shows its count as unknown, never as the 0 it used to claim beside the sheet's rotations.
    @Test func theInspectorShowsTheCountItCannotKeepAsUnknown() async throws {
        let lab = try await runLab("m 7 Esc 7 r r", scenarios: Scenarios.all)
        let rows = lab.backend.trimmedTextLines.filter {
            $0.contains("subscription") && $0.contains("AccumulationViewModel.swift")
        }
        #expect(rows.count == 2, "one subscription per visit, in the session's bag: \(rows)")
        #expect(rows.allSatisfy { $0.contains(" – ") && !$0.contains("×") }, "\(rows)")
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
        #expect(lab.environment.ledger.snapshotRearmingOnChange().growth.first?.counts == [3, 4, 5])
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

    /// Leaky, the sheet stores its subscription in the session's bag, which keeps the last
    /// sheet's beside it; bound, in its own bag, and the session's stays empty.
    @Test func theSheetStoresItsSubscriptionInTheBagItsModeSays() async throws {
        let leaky = try await runLab("m 7 Esc 7 r", scenarios: Scenarios.all)
        let stored = try leaky.viewModel(as: AccumulationViewModel.self)
        #expect(stored.mode == .leaky)
        #expect(stored.session.ownerID?.description == "AppSession#1")
        #expect(stored.sessionSubscriptions == 2, "this sheet's and the last one's")
        #expect(stored.received == 1)
        let bound = try await runLab("7 Esc 7 r", scenarios: Scenarios.all)
        let own = try bound.viewModel(as: AccumulationViewModel.self)
        #expect(own.mode == .bound)
        #expect(own.sessionSubscriptions == 0)
        #expect(own.received == 1)
    }

    /// The inspector selects the growing site first — it comes above the leaks — and Enter on
    /// it opens its report; closing the report is not a repetition.
    @Test func theInspectorListsTheGrowingSiteFirstAndOpensItsReport() async throws {
        let lab = try await runLab("m " + Self.visits(3) + " Tab", scenarios: Scenarios.all)
        let inspector = lab.lab.inspector
        let growth = try #require(inspector.content.growth.first)
        #expect(inspector.content.growth.count == 1)
        #expect(growth.owner.description == "AppSession#1")
        #expect(growth.kind == .subscription)
        #expect(growth.site.description == (try leakySite()))
        #expect(growth.live == 3)
        #expect(inspector.selection == InspectorContent.item(growth))
        await lab.press(.enter)
        #expect(lab.dump().stack == ["home", "growth-report"])
        #expect(try lab.topScreen(as: GrowthReportScreen.self).report == growth)
        await lab.press(.escape)
        #expect(lab.dump().stack == ["home"])
        #expect(lab.dump().growth.count == 1, "closing the report is not a repetition")
    }
}
