import TerminalUI
import Testing
import Tether

@testable import Lab

/// Scenario 5: @Observed values with will/did logs, a binding, and disable/obsolete/cleanse;
/// the leaky twin's strong capture keeps the view model alive.
@MainActor
@Suite struct ObservedScenarioTests {
    @Test func arrowsChangeTheValuesAndTheLogShowsWillAndDid() async throws {
        let lab = HeadlessLab()
        await lab.run(try KeyScript.parse("5 Right Right Down"))
        let model = try lab.viewModel(as: ObservedViewModel.self)
        #expect(model.mode == .bound)
        #expect(model.a == 2 && model.b == -1)
        let heard: [ObservedViewModel.Heard] = [
            .will("A", to: 1), .did("A", from: 0, to: 1), .will("A", to: 2), .did("A", from: 1, to: 2),
            .will("B", to: -1), .did("B", from: 0, to: -1),
        ]
        #expect(model.heard.items == heard)
    }

    @Test func bindMakesTheValuesFollowEachOtherAndUnbindSeversThem() async throws {
        let lab = HeadlessLab()
        await lab.run(try KeyScript.parse("5 b Right"))
        let model = try lab.viewModel(as: ObservedViewModel.self)
        #expect(model.a == 1 && model.b == 1 && model.isBound)
        #expect(lab.dump().counters.observers == 4, "three observations and the binding")
        await lab.run(try KeyScript.parse("Up u Right"))
        #expect(model.a == 3 && model.b == 2 && !model.isBound)
        #expect(lab.dump().counters.observers == 3)
    }

    @Test func disableSilencesTheLogObservations() async throws {
        let lab = HeadlessLab()
        await lab.run(try KeyScript.parse("5 d Right"))
        let model = try lab.viewModel(as: ObservedViewModel.self)
        #expect(model.logA?.kind == .disabled && model.logB?.kind == .disabled)
        #expect(model.heard.items.isEmpty)
        await lab.run(try KeyScript.parse("d Right"))
        #expect(model.heard.items == [ObservedViewModel.Heard.will("A", to: 2), .did("A", from: 1, to: 2)])
    }

    @Test func obsoleteStopsTheTallyAndCleansePurgesIt() async throws {
        let lab = HeadlessLab()
        await lab.run(try KeyScript.parse("5 Right o Right"))
        let model = try lab.viewModel(as: ObservedViewModel.self)
        #expect(model.tallied == 1)
        #expect(model.tallyState == .obsolete)
        #expect(lab.dump().counters.observers == 3, "an obsolete observation is still held")
        await lab.run(try KeyScript.parse("c"))
        #expect(model.tallyState == .purged)
        #expect(lab.dump().counters.observers == 2)
        await lab.run(try KeyScript.parse("o Right"))
        #expect(model.tallyState == .live && model.tallied == 1)
        #expect(lab.dump().counters.observers == 3)
    }

    @Test func rotatingChangesNothingButStillRotates() async throws {
        let lab = HeadlessLab()
        await lab.run(try KeyScript.parse("5 Right r r"))
        #expect(lab.dump().stack == ["home", "observed"])
        #expect(lab.dump().orientation == "portraitUpsideDown")
        let model = try lab.viewModel(as: ObservedViewModel.self)
        #expect(model.a == 1 && model.b == 0)
    }

    @Test func boundObservationsAndBindingEndWithTheSheet() async throws {
        let lab = HeadlessLab()
        let baseline = lab.dump().counters
        await lab.run(try KeyScript.parse("5 b Right o Esc wait:400 r"))
        #expect(lab.dump().counters == baseline)
        #expect(lab.dump().leaks.isEmpty)
    }

    @Test func leakyStrongCaptureKeepsTheViewModelNamedByTheObservation() async throws {
        let lab = HeadlessLab()
        await lab.run(try KeyScript.parse("m 5 Right Esc wait:400 r"))
        let site = try scenarioSite(
            containing: "$a.observe(.all, attributedTo:", in: "Observed/ObservedViewModel.swift")
        #expect(
            lab.dump().leaks == [
                LabDump.Leak(
                    owner: "ObservedViewModel#1", kind: "observer", site: site)
            ])
        #expect(lab.dump().counters.viewModels == 1, "the view model never dies")
    }
}
