import TerminalUI
import Testing
import Tether

@testable import Lab

/// Scenario 6: an observer and a ticker that follow the screen's lifecycle — paused while the
/// cover is up, the latest value once on return — or, leaky, never pause and never end.
@MainActor
@Suite struct LifecycleScenarioTests {
    @Test func tickerRunsOnLabTimeWhileTheScreenIsActive() async throws {
        let lab = try await runLab("6 wait:2500", scenarios: Scenarios.all)
        let text = lab.screenText
        #expect(text.contains("Lifecycle (bound)"))
        #expect(text.contains("screen resumed"))
        #expect(text.contains("observer active"))
        #expect(text.contains("values received 1   last portrait"))
        #expect(text.contains("ticker running   ticks 2"))
    }

    @Test func coverPausesTheObserverAndStopsTheTicker() async throws {
        let lab = try await runLab("6 wait:2500 n", scenarios: Scenarios.all)
        #expect(lab.dump().stack == ["home", "lifecycle", "cover"])
        #expect(lab.environment.ledger.counters.paused == 1)
        await lab.run(try KeyScript.parse("r r wait:3000"))
        let text = lab.screenText
        #expect(text.contains("screen created"))
        #expect(text.contains("observer paused   paused in the ledger 1"))
        #expect(text.contains("values received 1   last portrait"))
        #expect(text.contains("while covered 0   on return 0"))
        #expect(text.contains("ticker stopped   ticks 2"))
    }

    @Test func onReturnTheLatestValueArrivesExactlyOnce() async throws {
        let lab = try await runLab("6 wait:2500 n r r Esc", scenarios: Scenarios.all)
        #expect(lab.dump().stack == ["home", "lifecycle"])
        #expect(lab.environment.ledger.counters.paused == 0)
        #expect(lab.screenText.contains("values received 2   last portraitUpsideDown"))
        #expect(lab.screenText.contains("while covered 0   on return 1"))
        await lab.run(try KeyScript.parse("wait:1000 r"))
        #expect(lab.screenText.contains("values received 3   last landscapeRight"))
        #expect(lab.screenText.contains("on return 1"))
        #expect(lab.screenText.contains("ticker running   ticks 3"))
    }

    @Test func leakyKeepsReceivingWhileCoveredAndAfterDismissal() async throws {
        let lab = try await runLab("m 6 wait:1500 n r r wait:1000", scenarios: Scenarios.all)
        let text = lab.screenText
        #expect(text.contains("while covered 2"))
        #expect(text.contains("ticker running   ticks 2"))
        #expect(lab.environment.ledger.counters.paused == 0)
        await lab.run(try KeyScript.parse("Esc Esc wait:400 r"))
        let end = lab.dump()
        let site = try scenarioSite(containing: "liveData.add(", in: "Lifecycle/LifecycleViewModel.swift")
        #expect(end.leaks == [LabDump.Leak(owner: "LifecycleViewModel#1", kind: "observer", site: site)])
        #expect(end.counters.observers == 1)
        #expect(end.counters.tasks == 1, "the ticker never stops")
        #expect(end.counters.zombies == 1)
    }
}
