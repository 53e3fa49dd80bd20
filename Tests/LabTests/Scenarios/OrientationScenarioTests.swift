import Foundation
import TerminalUI
import Testing
import Tether

@testable import Lab

/// Scenario 1 (seed 000): the publisher ends with the sheet either way; the loop's task ends with
/// it only when stored — leaky, it keeps receiving after the view model is gone.
@MainActor
@Suite struct OrientationScenarioTests {
    @Test func showsPortraitFromBothSourcesAndWhatEachReceived() async throws {
        let lab = try await runLab("1", scenarios: Scenarios.all)
        let model = try lab.viewModel(as: OrientationViewModel.self)
        #expect(model.mode == .bound)
        // The publisher hands over the current value at once; the sequence hears only rotations.
        #expect(model.isPortraitFromPublisher && model.publisherValues == 1)
        #expect(!model.isPortraitFromSequence && model.sequenceValues == 0)
        await lab.run(try KeyScript.parse("r"))
        #expect(!model.isPortraitFromPublisher && model.publisherValues == 2)
        #expect(!model.isPortraitFromSequence && model.sequenceValues == 1)
        await lab.run(try KeyScript.parse("r r r"))
        #expect(model.isPortraitFromPublisher && model.publisherValues == 5)
        #expect(model.isPortraitFromSequence && model.sequenceValues == 4)
    }

    @Test func boundEndsTheSubscriptionAndTheLoopWithTheSheet() async throws {
        let lab = try await runLab("1", scenarios: Scenarios.all)
        #expect(lab.dump().counters.subscriptions == 1)
        #expect(lab.dump().counters.tasks == 1)
        await lab.run(try KeyScript.parse("Esc wait:400 r r"))
        #expect(lab.dump().counters == zeroCounters)
    }

    @Test func leakyLoopOutlivesItsViewModelAndIsNamedByItsCallSite() async throws {
        let lab = try await runLab("m 1 r r Esc wait:400 r r", scenarios: Scenarios.all)
        let end = lab.dump()
        let site = try scenarioSite(
            containing: "Task.attributed(to: lifetime)", in: "Orientation/OrientationViewModel.swift")
        #expect(end.leaks == [LabDump.Leak(owner: "OrientationViewModel#1", kind: "task", site: site)])
        // As in the seed: the view model deinits and the subscription ends, the loop does not.
        #expect(end.counters.viewModels == 0)
        #expect(end.counters.subscriptions == 0)
        #expect(end.counters.tasks == 1)
        #expect(end.counters.zombies == 2)
    }

    @Test func everyLeakyPresentationAddsALoopThatKeepsReceiving() async throws {
        let lab = try await runLab("m 1 Esc wait:400 1 Esc wait:400 r", scenarios: Scenarios.all)
        #expect(lab.dump().counters.tasks == 2)
        #expect(lab.dump().counters.zombies == 2)
        #expect(lab.dump().counters.leaks == 2)
    }
}
