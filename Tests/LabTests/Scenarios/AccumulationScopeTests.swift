import Testing
import Tether

@testable import Lab

/// The accumulation scenario as a user visits it: other sheets between the leaky visits. Each
/// dismissal checkpoints the ledger in the dismissed sheet's scope, so visits of one sheet are
/// compared with each other however many other sheets come between them.
@MainActor
@Suite struct AccumulationScopeTests {
    private func leakySite() throws -> String {
        try scenarioSite(
            containing: "subscription.store(boundTo: session.bag)",
            in: "Accumulation/AccumulationViewModel.swift")
    }

    /// `m 7 Esc m 1 Esc` repeated: a leaky accumulation visit, then a bound orientation visit.
    private static func interleaved(_ times: Int) -> String {
        Array(repeating: "m 7 Esc m 1 Esc", count: times).joined(separator: " ")
    }

    @Test func leakyVisitsWithABoundSheetBetweenEachGrowWithThreeAndFourLive() async throws {
        for (visits, live) in [(3, 3), (4, 4)] {
            let lab = try await runLab(Self.interleaved(visits), scenarios: Scenarios.all)
            let dump = lab.dump()
            #expect(
                dump.growth == [
                    LabDump.Growth(
                        owner: "AppSession#1", kind: "subscription", site: try leakySite(), live: live,
                        scope: "accumulation")
                ], "\(visits) visits")
            #expect(dump.counters.subscriptions == live)
        }
    }

    @Test func aBoundVisitOfAnotherSheetAfterThreeLeakyOnesKeepsTheGrowth() async throws {
        let lab = try await runLab("m 7 Esc 7 Esc 7 Esc m 1 Esc", scenarios: Scenarios.all)
        #expect(lab.dump().growth.map(\.live) == [3])
    }

    @Test func visitingOtherSheetsAfterwardsDoesNotStopIt() async throws {
        let lab = try await runLab(
            Self.interleaved(3) + " 1 Esc 2 Esc 3 Esc 1 Esc wait:400", scenarios: Scenarios.all)
        #expect(lab.dump().growth.map(\.live) == [3])
        #expect(lab.dump().growth.map(\.scope) == ["accumulation"])
    }

    @Test func boundInterleavedVisitsGrowNothing() async throws {
        let lab = try await runLab(
            Array(repeating: "7 Esc 1 Esc", count: 4).joined(separator: " "), scenarios: Scenarios.all)
        #expect(lab.dump().growth.isEmpty)
        #expect(lab.dump().counters.subscriptions == 0)
    }

    /// The sheet's own scope: a bound visit of the accumulation sheet itself ends the growth.
    @Test func aBoundVisitOfTheSameSheetStopsIt() async throws {
        let lab = try await runLab(Self.interleaved(3) + " 7 Esc", scenarios: Scenarios.all)
        #expect(lab.dump().growth.isEmpty)
        #expect(lab.dump().counters.subscriptions == 3)
    }
}
