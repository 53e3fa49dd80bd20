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
        let model = try lab.viewModel(as: LifecycleViewModel.self)
        #expect(model.mode == .bound)
        #expect(model.lifecycle.state == .resumed)
        #expect(model.isObserverActive)
        #expect(model.received == 1 && model.last == .portrait)
        #expect(model.isTicking && model.ticks == 2)
    }

    @Test func coverPausesTheObserverAndStopsTheTicker() async throws {
        let lab = try await runLab("6 wait:2500 n", scenarios: Scenarios.all)
        #expect(lab.dump().stack == ["home", "lifecycle", "cover"])
        #expect(lab.environment.ledger.counters.paused == 1)
        await lab.run(try KeyScript.parse("r r wait:3000"))
        let model = try lab.viewModel(as: LifecycleViewModel.self)
        #expect(model.lifecycle.state == .created)
        #expect(!model.isObserverActive && model.pausedInLedger == 1)
        #expect(model.received == 1 && model.last == .portrait)
        #expect(model.receivedWhileCovered == 0 && model.receivedOnReturn == 0)
        #expect(!model.isTicking && model.ticks == 2)
    }

    @Test func onReturnTheLatestValueArrivesExactlyOnce() async throws {
        let lab = try await runLab("6 wait:2500 n r r Esc", scenarios: Scenarios.all)
        #expect(lab.dump().stack == ["home", "lifecycle"])
        #expect(lab.environment.ledger.counters.paused == 0)
        let model = try lab.viewModel(as: LifecycleViewModel.self)
        #expect(model.received == 2 && model.last == .portraitUpsideDown)
        #expect(model.receivedWhileCovered == 0 && model.receivedOnReturn == 1)
        await lab.run(try KeyScript.parse("wait:1000 r"))
        #expect(model.received == 3 && model.last == .landscapeRight)
        #expect(model.receivedOnReturn == 1)
        #expect(model.isTicking && model.ticks == 3)
    }

    @Test func leakyKeepsReceivingWhileCoveredAndAfterDismissal() async throws {
        let lab = try await runLab("m 6 wait:1500 n r r wait:1000", scenarios: Scenarios.all)
        let model = try lab.viewModel(as: LifecycleViewModel.self)
        #expect(model.receivedWhileCovered == 2)
        #expect(model.isTicking && model.ticks == 2)
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
