import Foundation
import TerminalUI
import Testing
import Tether

@testable import Lab

/// What every scenario must hold (the "What the tests must hold"): run against the
/// real scenarios (``Scenarios/all``), and against a test double so the checks themselves are
/// known to pass for a scenario whose behaviour the test controls.
@MainActor
@Suite struct ScenarioContractTests {
    nonisolated static let fakes: [Scenario] = [FakeScenario.make()]

    @Test(
        "bound: present, rotate, dismiss, grace, rotate → back to the home baseline", arguments: Scenarios.all
    )
    func boundReturnsToBaseline(_ scenario: Scenario) async throws {
        try await checkBound(scenario, all: Scenarios.all)
    }

    @Test("bound, with the test doubles", arguments: fakes)
    func boundReturnsToBaselineFakes(_ scenario: Scenario) async throws {
        try await checkBound(scenario, all: [scenario])
    }

    @Test(
        "leaky: the same keys leave a leak with its call site (accumulation: a binding in a live owner)",
        arguments: Scenarios.all)
    func leakyLeaves(_ scenario: Scenario) async throws {
        try await checkLeaky(scenario, all: Scenarios.all)
    }

    @Test("leaky, with the test doubles", arguments: fakes)
    func leakyLeavesFakes(_ scenario: Scenario) async throws {
        let lab = try await checkLeaky(scenario, all: [scenario])
        if scenario.id == "fake" {
            #expect(lab.dump().counters.zombies >= 2, "values kept flowing to the dead sheet")
        }
    }

    @Test("many cycles come back to the baseline", arguments: Scenarios.all)
    func manyCycles(_ scenario: Scenario) async throws {
        try await checkCycles(scenario, all: Scenarios.all)
    }

    @Test("many cycles, with the test doubles", arguments: fakes)
    func manyCyclesFakes(_ scenario: Scenario) async throws {
        try await checkCycles(scenario, all: [scenario])
    }

    @Test("after q in bound mode every counter is 0", arguments: Scenarios.all)
    func quitZeroes(_ scenario: Scenario) async throws {
        try await checkQuit(scenario, all: Scenarios.all)
    }

    @Test("after q, with the test doubles", arguments: fakes)
    func quitZeroesFakes(_ scenario: Scenario) async throws {
        try await checkQuit(scenario, all: [scenario])
    }

    // MARK: Checks

    /// Home's counters once `scenario` was visited: what a scenario keeps for as long as the lab
    /// runs is part of the baseline — accumulation's app session, a live owner that holds nothing
    /// after bound visits.
    func baseline(_ home: LabDump.Counters, after scenario: Scenario) -> LabDump.Counters {
        var counters = home
        if scenario.id == "accumulation" { counters.viewModels += 1 }
        return counters
    }

    func checkBound(_ scenario: Scenario, all: [Scenario]) async throws {
        let lab = HeadlessLab(scenarios: all)
        let home = lab.dump().counters
        let baseline = baseline(home, after: scenario)
        await lab.run(try KeyScript.parse("\(scenario.number) r r r"))
        #expect(lab.dump().stack == ["home", scenario.id])
        #expect(lab.dump().counters.viewModels > baseline.viewModels, "the sheet's view model is counted")
        #expect(lab.dump().growth.isEmpty)
        await lab.run(try KeyScript.parse("Esc wait:400 r"))
        let end = lab.dump()
        #expect(end.stack == ["home"])
        #expect(end.counters == baseline)
        #expect(end.leaks.isEmpty)
        #expect(end.counters.zombies == 0)
        #expect(end.growth.isEmpty)
    }

    @discardableResult
    func checkLeaky(_ scenario: Scenario, all: [Scenario]) async throws -> HeadlessLab {
        let lab = HeadlessLab(scenarios: all)
        await lab.run(try KeyScript.parse("m \(scenario.number) r r r Esc wait:400 r r"))
        let end = lab.dump()
        #expect(end.mode == "leaky")
        if scenario.id == "accumulation" {
            // Its owner never ends, so no verdict falls: what it leaves is a subscription in the
            // session's bag, growth once three visits in a row leave one each
            // (AccumulationScenarioTests).
            #expect(end.leaks.isEmpty)
            #expect(end.counters.subscriptions == 1)
            return lab
        }
        #expect(end.counters.leaks >= 1)
        #expect(!end.leaks.isEmpty)
        for leak in end.leaks {
            #expect(leak.site.wholeMatch(of: /[A-Za-z0-9_+\-]+\.swift:[0-9]+/) != nil, "site \(leak.site)")
            #expect(!leak.owner.isEmpty)
        }
        return lab
    }

    func checkCycles(_ scenario: Scenario, all: [Scenario]) async throws {
        let lab = HeadlessLab(scenarios: all)
        let baseline = baseline(lab.dump().counters, after: scenario)
        let cycle = "\(scenario.number) r r Esc wait:400 "
        await lab.run(try KeyScript.parse(String(repeating: cycle, count: 25) + "r"))
        #expect(lab.dump().counters == baseline)
        #expect(lab.dump().leaks.isEmpty)
        #expect(lab.dump().growth.isEmpty, "bound: 25 visits, nothing grows")
    }

    func checkQuit(_ scenario: Scenario, all: [Scenario]) async throws {
        let lab = HeadlessLab(scenarios: all)
        await lab.run(try KeyScript.parse("\(scenario.number) r r q"))
        let end = lab.dump()
        #expect(lab.hasQuit)
        #expect(end.stack == [])
        #expect(end.counters == zeroCounters)
        #expect(end.leaks.isEmpty)
    }
}

extension Scenario: CustomTestStringConvertible {
    public var testDescription: String { "\(number) \(id)" }
}
