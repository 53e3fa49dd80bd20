import Testing

@testable import Tether

/// A long-lived owner: it never ends, so no leak verdict judges it.
private final class Session: Sendable {
    let bag = DisposeBag()
    init() { bag.track(self) }
}

/// A screen's view model: leaky, it keeps its subscription in the session's bag; bound, in its own.
private final class Visit: Sendable {
    static let line: UInt = #line + 5
    let bag = DisposeBag()

    init(session: Session, updates: PassthroughSubject<Int, Never>, leaky: Bool) {
        bag.track(self)
        updates.sink { _ in }.store(boundTo: leaky ? session.bag : bag)
    }
}

/// Repetitions of one scope are compared with each other, however many of other scopes come
/// between them: a user seldom opens one screen three times in a row.
@Suite struct GrowthScopeTests {
    private let fixture = LedgerFixture()
    private let updates = PassthroughSubject<Int, Never>()
    private let session: Session

    init() { session = fixture.run { Session() } }

    /// One visit of the screen `scope`, leaky or bound, ended by its checkpoint.
    private func visit(_ scope: String, leaky: Bool) {
        fixture.run { _ = Visit(session: session, updates: updates, leaky: leaky) }
        fixture.ledger.checkpoint(scope: scope)
    }

    private var growth: [GrowthReport] { fixture.ledger.snapshotRearmingOnChange().growth }

    /// `m 7 Esc m 1 Esc` ×4 in the lab: a leaky visit of one sheet, a bound visit of another,
    /// four times. Before scopes, each bound visit was a flat checkpoint that ended the growth.
    @Test func leakyVisitsOfOneScopeGrowWithBoundVisitsOfAnotherBetweenThem() throws {
        for round in 1...4 {
            visit("accumulation", leaky: true)
            visit("livedata", leaky: false)
            #expect(growth.map(\.live) == (round < 3 ? [] : [round]), "after round \(round)")
        }
        let report = try #require(growth.first)
        #expect(growth.count == 1, "the bound sheet's scope grows nothing")
        #expect(report.scope == "accumulation")
        #expect(report.counts == [2, 3, 4])
        #expect(report.site.line == Visit.line)
        #expect(report.description.contains("live at the last 3 checkpoints of accumulation: 2 → 3 → 4"))
    }

    @Test func visitingOtherScopesAfterwardsDoesNotStopTheGrowth() {
        for _ in 0..<3 { visit("accumulation", leaky: true) }
        #expect(growth.map(\.live) == [3])
        for scope in ["livedata", "orientation", "livedata", "fuse", "livedata"] {
            visit(scope, leaky: false)
        }
        #expect(growth.map(\.live) == [3])
        #expect(growth.map(\.scope) == ["accumulation"])
    }

    @Test func boundInterleavedVisitsGrowNothing() {
        for _ in 0..<5 {
            visit("accumulation", leaky: false)
            visit("livedata", leaky: false)
        }
        #expect(growth.isEmpty)
        #expect(fixture.ledger.counters.subscriptions == 0)
    }

    /// The reset rule, per scope: a site stops growing at the first repetition of *its* scope in
    /// which it did not rise — not at another scope's.
    @Test func aSiteStopsGrowingAtTheFirstFlatRepetitionOfItsOwnScope() {
        for _ in 0..<3 { visit("accumulation", leaky: true) }
        visit("livedata", leaky: false)
        #expect(growth.count == 1, "a flat repetition of another scope")
        visit("accumulation", leaky: false)
        #expect(growth.isEmpty, "a flat repetition of its own")
        for _ in 0..<2 { visit("accumulation", leaky: true) }
        #expect(growth.isEmpty, "a new run needs three rises again")
        visit("accumulation", leaky: true)
        #expect(growth.map(\.counts) == [[4, 5, 6]])
    }

    /// What another scope's repetition adds is not this scope's: the livedata sheet, visited
    /// between leaky accumulation visits, sees the session's count rise between its own
    /// checkpoints, but not in its own repetitions.
    @Test func aRiseDuringAnotherScopesRepetitionIsNotThisScopes() {
        let heard = Recorder<String>()
        let watch = fixture.ledger.onGrowth { heard.record($0.scope) }
        for _ in 0..<5 {
            visit("accumulation", leaky: true)
            visit("livedata", leaky: false)
        }
        #expect(heard.events == ["accumulation"])
        #expect(growth.map(\.scope) == ["accumulation"])
        watch.cancel()
    }

    /// Two scopes that each leave one more in the same site grow in each: two reports.
    @Test func aSiteGrowingInTwoScopesIsReportedInEach() {
        for _ in 0..<3 {
            visit("a", leaky: true)
            visit("b", leaky: true)
        }
        #expect(growth.map(\.scope) == ["a", "b"])
        #expect(growth.map(\.counts) == [[1, 3, 5], [2, 4, 6]])
    }

    @Test func checkpointWithoutAScopeIsTheDefaultScope() {
        for _ in 0..<3 {
            fixture.run { _ = Visit(session: session, updates: updates, leaky: true) }
            fixture.ledger.checkpoint()
        }
        #expect(growth.map(\.scope) == [GrowthReport.defaultScope])
        #expect(growth.first?.description.contains("live at the last 3 checkpoints: 1 → 2 → 3,") == true)
        visit(GrowthReport.defaultScope, leaky: false)
        #expect(growth.isEmpty)
    }

    /// A program that names a scope per request keeps little of the scopes gone by: a scope's
    /// rises are dropped at its first flat repetition, and beyond the ledger's capacity the scope
    /// moved longest ago is dropped.
    @Test func scopesGoneByAreForgotten() {
        let capacity = LedgerGrowth.scopeCapacity
        visit("first", leaky: true)
        for index in 0..<capacity { visit("request \(index)", leaky: index.isMultiple(of: 2)) }
        let scopes = fixture.ledger.state.withLock { Set($0.growth.scopes.keys) }
        #expect(scopes.count == 1 + capacity / 2, "the bound requests' scopes follow nothing")
        #expect(scopes.contains("first") && !scopes.contains("request 1"))
        for index in capacity..<(2 * capacity + 10) { visit("request \(index)", leaky: true) }
        let kept = fixture.ledger.state.withLock { Set($0.growth.scopes.keys) }
        #expect(kept.count == capacity)
        #expect(kept.contains("request \(2 * capacity + 9)"))
        #expect(!kept.contains("first") && !kept.contains("request 0"), "moved longest ago")
    }
}
