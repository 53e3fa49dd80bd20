import TerminalUI
import Testing
import Tether

@testable import Lab

/// Scenario 4: Tether's asyncSink cancels every running body with the sheet; the seed's cancels
/// only the last one.
@MainActor
@Suite struct AsyncSinkScenarioTests {
    @Test func eachRotationStartsSlowWorkWithAProgressBar() async throws {
        let lab = HeadlessLab()
        await lab.run(try KeyScript.parse("4 r r wait:500"))
        let model = try lab.viewModel(as: AsyncSinkViewModel.self)
        #expect(model.mode == .bound)
        #expect(model.overlap == .concurrent)
        #expect(model.started == 2 && model.running == 2)
        #expect(model.jobs.map(\.steps) == [5, 5], "5 of 30 steps in 500 ms")
        #expect(lab.dump().counters.tasks == 2)
        await lab.run(try KeyScript.parse("wait:2600"))
        #expect(model.running == 0)
        #expect(model.jobs.map(\.steps) == [30, 30])
        #expect(model.jobs.map(\.state) == [.done, .done])
        #expect(lab.dump().counters.tasks == 0)
    }

    @Test func boundDismissalCancelsEveryBody() async throws {
        let lab = HeadlessLab()
        let baseline = lab.dump().counters
        await lab.run(try KeyScript.parse("4 r r wait:200 Esc"))
        #expect(lab.dump().counters.tasks == 0, "every bar stops at once")
        await lab.run(try KeyScript.parse("wait:3200 r"))
        #expect(lab.dump().counters == baseline)
        #expect(lab.dump().leaks.isEmpty)
    }

    @Test func leakyDismissalCancelsOnlyTheLastBody() async throws {
        let lab = HeadlessLab()
        await lab.run(try KeyScript.parse("m 4 r r Esc"))
        #expect(lab.dump().counters.tasks == 1, "all but the last keep going")
        await lab.run(try KeyScript.parse("wait:400"))
        let site = try scenarioSite(containing: ".naiveAsyncSink(", in: "AsyncSink/AsyncSinkViewModel.swift")
        #expect(
            lab.dump().leaks == [
                LabDump.Leak(
                    owner: "AsyncSinkViewModel#1", kind: "task", site: site)
            ])
        #expect(lab.dump().counters.zombies == 4, "four progress steps of the surviving body")
        await lab.run(try KeyScript.parse("wait:2700"))
        #expect(lab.dump().counters.tasks == 0, "the work ran to its end")
        #expect(lab.dump().counters.zombies == 30, "every step came after dismissal")
    }

    @Test func policyKeyCyclesAndSerialRunsOneAtATime() async throws {
        let lab = HeadlessLab()
        await lab.run(try KeyScript.parse("4 p"))
        let model = try lab.viewModel(as: AsyncSinkViewModel.self)
        #expect(model.overlap == .serial)
        await lab.run(try KeyScript.parse("r r wait:500"))
        #expect(model.started == 1 && model.running == 1)
        await lab.run(try KeyScript.parse("p p p"))
        #expect(model.overlap == .concurrent)
        #expect(model.jobs.map(\.state) == [.cancelled])
    }

    @Test func leakyLatestDoesNotLeakBecauseBodiesNeverOverlap() async throws {
        let lab = HeadlessLab()
        await lab.run(try KeyScript.parse("m 4 p p r r Esc wait:400"))
        #expect(lab.dump().counters.leaks == 0)
        #expect(lab.dump().counters.tasks == 0)
    }
}
