import Testing
import Tether

@testable import Lab

/// Scenario 2 (seed 001): three panels on one LiveData — removed with their bags when bound,
/// never removed when leaky.
@MainActor
@Suite struct LiveDataScenarioTests {
    @Test func threePanelsReceiveEveryValue() async throws {
        let lab = try await runLab("2 r", scenarios: Scenarios.all)
        let model = try lab.viewModel(as: LiveDataViewModel.self)
        #expect(model.mode == .bound)
        #expect(model.panels.map(\.name) == ["A", "B", "C"])
        #expect(model.observerCount == 3)
        // The current value on registration, then the rotation.
        #expect(model.panels.map(\.received) == [2, 2, 2])
        #expect(model.panels.map(\.last) == [.landscapeLeft, .landscapeLeft, .landscapeLeft])
        #expect(lab.dump().counters.observers == 3)
        #expect(lab.dump().counters.viewModels == 4, "the view model and its three panels")
    }

    @Test func boundRemovesEveryObserverOnDismissal() async throws {
        let lab = try await runLab("2 r Esc wait:400 r", scenarios: Scenarios.all)
        #expect(lab.environment.device.orientationLiveData.observerCount == 0)
        #expect(lab.dump().counters == zeroCounters)
    }

    @Test func leakyPanelsOutliveTheSheetAndKeepReceiving() async throws {
        let lab = try await runLab("m 2 r Esc wait:400 r r", scenarios: Scenarios.all)
        let end = lab.dump()
        let site = try scenarioSite(
            containing: "disposeBag: leakyBag, attributedTo", in: "LiveData/LiveDataViewModel.swift")
        #expect(end.leaks == [LabDump.Leak(owner: "LiveDataViewModel#1", kind: "observer", site: site)])
        #expect(end.counters.observers == 3)
        #expect(end.counters.zombies == 6, "three panels, two rotations after the sheet")
        #expect(lab.environment.device.orientationLiveData.observerCount == 3)
    }

    @Test func leakyObserversPileUpAcrossPresentations() async throws {
        let lab = try await runLab("m 2 Esc wait:400 2", scenarios: Scenarios.all)
        #expect(try lab.viewModel(as: LiveDataViewModel.self).observerCount == 6)
        #expect(lab.dump().counters.leaks == 1)
    }
}
