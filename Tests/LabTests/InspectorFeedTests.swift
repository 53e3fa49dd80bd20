import TerminalUI
import Testing
import Tether
import TetherInspector

@testable import Lab

/// The lab's feed of the inspector keeps the conversions of unchanged leaks between frames, and
/// the inspector draws only the rows of a long list that are on screen: neither may show
/// anything but what converting and drawing everything anew would.
@MainActor
@Suite struct InspectorFeedTests {
    @Test func aFeedConvertsAsTheWireDoesFrameAfterFrame() async throws {
        let lab = HeadlessLab()
        let ledger = lab.environment.ledger
        let feed = InspectorFeed()
        await lab.run(try KeyScript.parse("m 1 Esc wait:400 1 Esc wait:400"))
        var snapshot = ledger.snapshotRearmingOnChange()
        #expect(snapshot.leaks.count == 2)
        #expect(feed.convert(snapshot) == InspectorSnapshot(snapshot))
        // Rotations reach the leaked tasks: their reports count zombie deliveries, so they change.
        await lab.run(try KeyScript.parse("r r 1 Esc wait:400"))
        snapshot = ledger.snapshotRearmingOnChange()
        #expect(snapshot.leaks.count == 3)
        #expect(snapshot.leaks.contains { $0.report.survivors.contains { ($0.deliveriesAfterEnd ?? 0) > 0 } })
        #expect(feed.convert(snapshot) == InspectorSnapshot(snapshot))
        #expect(feed.convert(snapshot) == InspectorSnapshot(snapshot), "and again, all of it kept")
    }

    @Test func aFeedTakesASnapshotOnlyWhenTheLedgerTheLabOrTimeMoved() {
        let clock = ManualClock()
        let ledger = Ledger(clock: clock)
        let feed = InspectorFeed()
        let inspector = Inspector()
        func notes() -> [String] { inspector.snapshot.events.compactMap(\.message) }
        feed.feed(inspector, from: ledger, labChanges: 0)
        ledger.note("untold")  // no change handler yet: the feed is not told
        feed.feed(inspector, from: ledger, labChanges: 0)
        #expect(notes().isEmpty, "nothing the feed knows of moved: the last snapshot stands")
        feed.feed(inspector, from: ledger, labChanges: 1)
        #expect(notes() == ["untold"], "the lab changed")
        let subscription = ledger.onChange { feed.ledgerChanged() }
        ledger.note("told")
        feed.feed(inspector, from: ledger, labChanges: 1)
        #expect(notes() == ["untold", "told"], "the ledger said it changed")
        clock.advance(by: .seconds(1))
        feed.feed(inspector, from: ledger, labChanges: 1)
        #expect(inspector.snapshot.time == .seconds(1), "lab time moved")
        subscription.cancel()
    }

    func longTree() -> Inspector {
        let owners = (1...200).map { WireFixtures.owner("Model", $0, entries: 0) }
        let inspector = Inspector()
        inspector.update(InspectorSnapshot(owners: owners))
        return inspector
    }

    func lines(_ inspector: Inspector, focused: Bool) -> [String] {
        var buffer = Buffer(size: Size(width: 60, height: 30))
        inspector.render(
            into: &buffer, area: buffer.area, style: LabStyle(theme: .standard), focused: focused)
        return buffer.textLines
    }

    @Test func aLongListShowsItsHeadAndHowManyMore() {
        let shown = lines(longTree(), focused: false)
        #expect(shown.contains { $0.contains("Model#1 alive") })
        let more = shown.first { $0.contains("more") }
        let rows = shown.filter { $0.contains(" alive ") }.count
        #expect(more?.contains("… \(200 - rows) more") == true, "\(shown)")
    }

    @Test func aFocusedLongListScrollsToItsSelection() {
        let inspector = longTree()
        inspector.selectFirstIfNone()
        inspector.move(by: 149)
        let shown = lines(inspector, focused: true)
        #expect(shown.contains { $0.contains("> ") && $0.contains("Model#150 alive") }, "\(shown)")
        #expect(!shown.contains { $0.contains("Model#1 alive") })
        inspector.move(by: -3)
        let after = lines(inspector, focused: true)
        #expect(after.contains { $0.contains("> ") && $0.contains("Model#147 alive") }, "\(after)")
        #expect(after.contains { $0.contains("Model#150 alive") }, "scrolled as little as it must")
    }

    /// Unfocused, with nothing selected, the lab's inspector is fed the ledger's head: it draws
    /// what it would from the whole snapshot, leaked, ended and living owners alike, however many
    /// rows the tree has past the panel.
    @Test func anInspectorFedTheLedgersHeadDrawsWhatTheWholeSnapshotDraws() async throws {
        let lab = HeadlessLab()
        let ledger = lab.environment.ledger
        let visits = Array(repeating: "1 Esc wait:400", count: 40).joined(separator: " ")
        await lab.run(try KeyScript.parse("m \(visits) 1 Esc m 2"))
        let snapshot = ledger.snapshotRearmingOnChange()
        #expect(snapshot.leaks.count == 40)
        #expect(Set(snapshot.owners.map(\.state)) == [.leaked, .ended, .alive])
        let whole = Inspector()
        whole.update(InspectorSnapshot(snapshot))
        let head = Inspector()
        InspectorFeed().feed(head, from: ledger, labChanges: 0, rows: 30)
        #expect(head.content.tree.count == 30, "the head holds the rows a panel of 30 draws")
        #expect(head.content.treeCount == whole.content.tree.count)
        #expect(head.content.tree == Array(whole.content.tree.prefix(30)))
        #expect(head.content.groups.map(\.count) == [40])
        #expect(head.content.ownerCount == whole.content.ownerCount)
        #expect(head.content.items.first == whole.content.items.first)
        #expect(lines(head, focused: false) == lines(whole, focused: false))
        #expect(lines(head, focused: false).contains { $0.contains("more") }, "the tree runs past the panel")
    }

    /// What the lab shows is the same whichever the feed reads: a script that piles up leaks past
    /// the panel, then selects, filters and hides the inspector, draws each frame as a lab fed
    /// only whole snapshots does.
    @Test func theLabDrawsTheFramesOfALabFedWholeSnapshots() async throws {
        let visits = Array(repeating: "1 Esc wait:400", count: 30).joined(separator: " ")
        let script = try KeyScript.parse(
            "m \(visits) 1 Esc wait:100 Tab Down Down Tab 1 Esc wait:400 i i Tab / o Enter Tab wait:400")
        let heads = HeadlessLab()
        let wholes = HeadlessLab()
        wholes.lab.readsLedgerHeads = false
        var differing: [Int] = []
        for (index, step) in script.enumerated() {
            await heads.perform(step)
            await wholes.perform(step)
            if heads.screenText != wholes.screenText { differing.append(index) }
        }
        #expect(differing.isEmpty, "\(differing.first.map { "\(script[$0])" } ?? "")")
        #expect(heads.screenText.contains("more"), "the tree ran past the panel")
        #expect(heads.json() == wholes.json())
    }
}
