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
        #expect(lab.screenText.contains("Observed (bound)"))
        #expect(lab.screenText.contains("A 2   B -1"))
        #expect(lab.screenText.contains("will A → 1"))
        #expect(lab.screenText.contains("did  A 1 → 2"))
        #expect(lab.screenText.contains("did  B 0 → -1"))
    }

    @Test func bindMakesTheValuesFollowEachOtherAndUnbindSeversThem() async throws {
        let lab = HeadlessLab()
        await lab.run(try KeyScript.parse("5 b Right"))
        #expect(lab.screenText.contains("A 1   B 1   A ⇄ B bound"))
        #expect(lab.dump().counters.observers == 4, "three observations and the binding")
        await lab.run(try KeyScript.parse("Up u Right"))
        #expect(lab.screenText.contains("A 3   B 2   not bound"))
        #expect(lab.dump().counters.observers == 3)
    }

    @Test func disableSilencesTheLogObservations() async throws {
        let lab = HeadlessLab()
        await lab.run(try KeyScript.parse("5 d Right"))
        #expect(lab.screenText.contains(".disabled"))
        #expect(!lab.screenText.contains("will A → 1"))
        await lab.run(try KeyScript.parse("d Right"))
        #expect(lab.screenText.contains("will A → 2"))
    }

    @Test func obsoleteStopsTheTallyAndCleansePurgesIt() async throws {
        let lab = HeadlessLab()
        await lab.run(try KeyScript.parse("5 Right o Right"))
        #expect(lab.screenText.contains("tally of A's changes 1"))
        #expect(lab.screenText.contains("obsolete, held until c"))
        #expect(lab.dump().counters.observers == 3, "an obsolete observation is still held")
        await lab.run(try KeyScript.parse("c"))
        #expect(lab.screenText.contains("purged"))
        #expect(lab.dump().counters.observers == 2)
        await lab.run(try KeyScript.parse("o Right"))
        #expect(lab.screenText.contains("tally of A's changes 1"))
        #expect(lab.dump().counters.observers == 3)
    }

    @Test func rotatingChangesNothingButStillRotates() async throws {
        let lab = HeadlessLab()
        await lab.run(try KeyScript.parse("5 Right r r"))
        #expect(lab.dump().stack == ["home", "observed"])
        #expect(lab.dump().orientation == "portraitUpsideDown")
        #expect(lab.screenText.contains("A 1   B 0"))
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
        let line = try ScenarioSource.line(
            containing: "$a.observe(.all, attributedTo:", in: "Observed/ObservedViewModel.swift")
        #expect(
            lab.dump().leaks == [
                LabDump.Leak(
                    owner: "ObservedViewModel#1", kind: "observer", site: "ObservedViewModel.swift:\(line)")
            ])
        #expect(lab.dump().counters.viewModels == 1, "the view model never dies")
    }
}
