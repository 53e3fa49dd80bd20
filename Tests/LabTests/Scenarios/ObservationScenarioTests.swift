import Foundation
import TerminalUI
import Testing
import Tether

@testable import Lab

/// Scenario 8: the device's orientation watched with `Observations`. Bound, `forEach(boundTo:)`
/// ends the loop with the sheet; leaky, `guard let self` before the loop keeps the view model
/// alive for as long as the loop runs, and the loop never ends.
@MainActor
@Suite struct ObservationScenarioTests {
    static func loopSite() throws -> String {
        try scenarioSite(
            containing: "Task.attributed(to: lifetime)", in: "Observation/ObservationViewModel.swift")
    }

    @Test func theLoopHearsTheOrientationNowAndAfterEachRotation() async throws {
        let lab = try await runLab("8", scenarios: Scenarios.all)
        let model = try lab.viewModel(as: ObservationViewModel.self)
        #expect(model.mode == .bound)
        #expect(
            model.orientation == .portrait && model.received == 1, "Observations begins with the value now")
        await lab.run(try KeyScript.parse("r r"))
        #expect(model.orientation == .portraitUpsideDown && model.received == 3)
        #expect(lab.dump().counters.tasks == 1)
        let entry = try #require(
            lab.environment.ledger.snapshotRearmingOnChange().owners.first?.entries.first)
        #expect(entry.deliveries == 3, "forEach counts each value it hands the body")
    }

    /// `8 r r Esc r`: bound, every counter back at home's baseline.
    @Test func boundEndsTheLoopWithTheSheet() async throws {
        let lab = HeadlessLab()
        let baseline = lab.dump().counters
        await lab.run(try KeyScript.parse("8 r r Esc wait:400 r"))
        let end = lab.dump()
        #expect(end.stack == ["home"])
        #expect(end.counters == baseline)
        #expect(end.counters == zeroCounters)
        #expect(end.leaks.isEmpty)
    }

    /// `m 8 r r Esc r`: leaky, one leak at the loop's call site, the view model still alive, and
    /// the rotation after the dismissal a zombie delivery.
    @Test func leakyLoopKeepsItsViewModelAliveAndHearsEveryLaterRotation() async throws {
        let lab = HeadlessLab()
        await lab.run(try KeyScript.parse("m 8 r r Esc wait:400 r"))
        let end = lab.dump()
        #expect(
            end.leaks == [
                LabDump.Leak(owner: "ObservationViewModel#1", kind: "task", site: try Self.loopSite())
            ])
        #expect(end.counters.viewModels == 1, "held by its own loop, the view model never deinitializes")
        #expect(end.counters.tasks == 1)
        #expect(end.counters.zombies >= 1)
        let owner = try #require(lab.environment.ledger.snapshotRearmingOnChange().owners.first)
        #expect(owner.id.description == "ObservationViewModel#1")
        #expect(owner.state == .leaked)
        await lab.run(try KeyScript.parse("r r"))
        #expect(
            lab.dump().counters.zombies == end.counters.zombies + 2, "each rotation reaches the dead sheet")
    }

    @Test func eachLeakyVisitLeavesOneMoreLoopAndViewModel() async throws {
        let lab = HeadlessLab()
        await lab.run(try KeyScript.parse("m 8 Esc wait:400 8 Esc wait:400 r"))
        let end = lab.dump()
        #expect(end.counters.viewModels == 2)
        #expect(end.counters.tasks == 2)
        #expect(end.counters.leaks == 2)
        #expect(end.counters.zombies == 2, "one rotation, heard by both loops")
    }
}
