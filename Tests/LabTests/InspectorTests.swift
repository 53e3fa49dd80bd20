import TerminalUI
import Testing
import Tether
import TetherInspector

@testable import Lab

/// The inspector component on hand-made wire snapshots: what it lists, in which order, and what
/// its keys do.
@MainActor
@Suite struct InspectorTests {
    let style = LabStyle(theme: .standard)

    func inspector(_ snapshot: InspectorSnapshot = WireFixtures.snapshot()) -> Inspector {
        let inspector = Inspector()
        inspector.update(snapshot)
        return inspector
    }

    func ownerIDs(_ content: InspectorContent) -> [String] {
        content.tree.compactMap { if case .owner(let owner, _) = $0 { owner.id.description } else { nil } }
    }

    @Test func leakedOwnersComeFirstThenEndedThenTheLivingInTheOrderMade() {
        let content = InspectorContent(WireFixtures.snapshot())
        #expect(
            ownerIDs(content) == [
                "OrientationViewModel#1", "OrientationViewModel#2", "OrientationViewModel#3", "Sheet#1",
                "Model#1",
                "Model#2",
            ])
        #expect(content.groups.map(\.count) == [3], "three leaks of one signature, one group")
        #expect(
            content.items.first == .leakGroup("OrientationViewModel ← task App/OrientationViewModel.swift:46")
        )
    }

    @Test func theFilterMatchesTypesAndFileNames() {
        let byType = InspectorContent(WireFixtures.snapshot(), filter: "sheet#")
        #expect(ownerIDs(byType) == ["Sheet#1"])
        #expect(byType.groups.isEmpty)
        let byFile = InspectorContent(WireFixtures.snapshot(), filter: "app/MODEL.swift")
        #expect(ownerIDs(byFile) == ["Model#1", "Model#2"])
        let leaks = InspectorContent(WireFixtures.snapshot(), filter: "orientation")
        #expect(leaks.groups.count == 1 && ownerIDs(leaks).count == 3)
        #expect(InspectorContent(WireFixtures.snapshot(), filter: "nothing like it").items.isEmpty)
    }

    @Test func groupsShowTheirCountAndGiveWayInTheMiddle() {
        let group = try! #require(WireFixtures.snapshot().leakGroups.first)
        #expect(
            Inspector.groupLine(group, style: style).plainText
                == "OrientationViewModel ← task OrientationViewModel.swift:46 ×3")
        #expect(
            Inspector.groupLine(group, style: style, width: 32).plainText == "OrientationViewModel ← task… ×3"
        )
        #expect(Inspector.groupLine(group, style: style, width: 10).plainText.hasSuffix("×3"))
    }

    @Test func arrowsSelectTheLeaksThenTheTreeAndEnterOpensAReport() {
        let inspector = inspector()
        inspector.selectFirstIfNone()
        guard case .openReport(let group) = inspector.handle(.enter) else {
            Issue.record("Enter on a leak opens its report")
            return
        }
        #expect(group.count == 3)
        #expect(inspector.handle(.down) == .handled)
        #expect(inspector.selection == .owner(OwnerID(typeName: "OrientationViewModel", serial: 1)))
        #expect(inspector.handle(.up) == .handled && inspector.handle(.up) == .handled)
        #expect(inspector.selection == .leakGroup(group.signature), "the first row stops the selection")
        #expect(inspector.handle(.end) == .handled)
        #expect(inspector.selection == .entry(owner: OwnerID(typeName: "Model", serial: 2), index: 1))
    }

    /// Growing sites come before the leaks, and Enter on one opens its report.
    @Test func growingSitesComeFirstAndEnterOpensTheirReport() {
        let inspector = inspector(WireFixtures.growingSnapshot())
        let growth = WireFixtures.growth()
        #expect(inspector.content.items.first == InspectorContent.item(growth))
        #expect(
            inspector.content.items.dropFirst().first
                == .leakGroup("OrientationViewModel ← task App/OrientationViewModel.swift:46"))
        inspector.selectFirstIfNone()
        #expect(inspector.handle(.enter) == .openGrowth(growth))
        #expect(InspectorContent(WireFixtures.growingSnapshot(), filter: "model.swift").growth == [growth])
        #expect(InspectorContent(WireFixtures.growingSnapshot(), filter: "sheet").growth.isEmpty)
    }

    @Test func aGrowingSiteShowsItsOwnerSiteLiveCountAndGainAndGivesWayFromItsStart() {
        let growth = WireFixtures.growth(live: 5)
        #expect(
            Inspector.growthLine(growth, style: style).plainText == "Model#2 ← Model.swift:33 5 live +1/rep")
        #expect(
            Inspector.growthLine(growth, style: style, width: 34).plainText
                == "Model#2 ← ….swift:33 5 live +1/rep")
        #expect(Inspector.growthLine(growth, style: style, width: 10).plainText.hasSuffix("5 live +1/rep"))
        var slow = growth
        slow.counts = [1, 2, 4]
        #expect(slow.gainPerRepetition == 2, "rounded up")
        slow.counts = [4]
        #expect(Inspector.growthLine(slow, style: style).plainText == "Model#2 ← Model.swift:33 5 live")
    }

    @Test func ownersFoldAndUnfold() {
        let inspector = inspector()
        let model = OwnerID(typeName: "Model", serial: 2)
        _ = inspector.handle(.end)  // Model#2's second entry
        #expect(inspector.handle(.left) == .handled)
        #expect(inspector.selection == .owner(model), "← on an entry goes to its owner")
        _ = inspector.handle(.left)
        #expect(inspector.collapsed == [model])
        #expect(inspector.content.items.last == .owner(model), "its entries are hidden")
        _ = inspector.handle(.right)
        #expect(inspector.collapsed.isEmpty)
        _ = inspector.handle(.enter)
        #expect(inspector.collapsed == [model], "Enter on an owner folds it")
        _ = inspector.handle(.enter)
        #expect(inspector.collapsed.isEmpty)
    }

    @Test func slashTypesAFilterEnterKeepsItEscClearsIt() {
        let inspector = inspector()
        for key in [Key.character("/"), .character("s"), .character("h"), .character("q"), .backspace] {
            #expect(inspector.handle(key) == .handled)
        }
        #expect(inspector.filter == "sh" && inspector.isEditingFilter)
        _ = inspector.handle(.enter)
        #expect(!inspector.isEditingFilter && ownerIDs(inspector.content) == ["Sheet#1"])
        #expect(inspector.handle(.character("q")) == .ignored, "q is the app's again")
        #expect(inspector.handle(.escape) == .handled)
        #expect(inspector.filter.isEmpty)
        #expect(inspector.handle(.escape) == .giveBackFocus, "Esc with no filter gives the keys back")
        #expect(inspector.handle(.tab) == .giveBackFocus)
    }

    /// A new snapshot keeps the selection on the same row, or at its place when the row went —
    /// and an empty one (a process that came back with nothing) clears it.
    @Test func theSelectionSurvivesNewSnapshots() {
        let inspector = inspector()
        _ = inspector.handle(.end)
        var fewer = WireFixtures.snapshot()
        fewer.owners.removeLast(2)
        inspector.update(fewer)
        #expect(inspector.selection == inspector.content.items.last)
        inspector.update(InspectorSnapshot())
        #expect(inspector.selection == nil)
        #expect(inspector.handle(.down) == .handled && inspector.selection == nil)
        inspector.update(WireFixtures.snapshot())
        _ = inspector.handle(.down)
        #expect(inspector.selection == inspector.content.items.first)
    }

    @Test func rendersAtAnySizeAndShowsSparklinesWhereThereIsRoom() {
        let inspector = inspector()
        var second = WireFixtures.snapshot(time: .seconds(35))
        second.counters.leaks = 4
        inspector.update(second)
        for size in [Size(width: 0, height: 0), Size(width: 1, height: 1), Size(width: 12, height: 4)] {
            var buffer = Buffer(size: size)
            inspector.render(into: &buffer, area: buffer.area, style: style, focused: true)
        }
        var wide = Buffer(size: Size(width: 120, height: 30))
        inspector.render(into: &wide, area: wide.area, style: style, focused: true)
        let lines = wide.textLines
        let leaks = try! #require(lines.first { $0.contains("leaks ") && $0.contains("+1") })
        #expect(leaks.contains("█"), "a sparkline beside the counter: \(leaks)")
        #expect(
            lines.contains { $0.contains("> OrientationViewModel ← task OrientationViewModel.swift:46 ×3") }
                == false)
        #expect(
            lines.contains { $0.contains("OrientationViewModel ← task OrientationViewModel.swift:46 ×3") })
        #expect(lines.contains { $0.contains("▾ OrientationViewModel#1 LEAKED") })
        #expect(lines.contains { $0.contains("presented orientation") })
        var narrow = Buffer(size: Size(width: 54, height: 30))
        inspector.render(into: &narrow, area: narrow.area, style: style, focused: false)
        #expect(!narrow.textLines.joined().contains("█"), "no room for sparklines in the lab's panel")
    }
}

@Suite struct CounterHistoryTests {
    func counters(leaks: Int) -> LabDump.Counters {
        LabDump.Counters(viewModels: 0, subscriptions: 0, tasks: 0, observers: 0, leaks: leaks, zombies: 0)
    }

    @Test func eachSliceShowsTheLargestValueInItAndNothingBeforeTheFirstSample() {
        var history = CounterHistory()
        history.record(counters(leaks: 1), at: .seconds(30))
        history.record(counters(leaks: 5), at: .seconds(31))
        history.record(counters(leaks: 2), at: .seconds(32))
        history.record(counters(leaks: 2), at: .seconds(59))  // no change: not a sample
        history.record(counters(leaks: 3), at: .seconds(60))
        #expect(history.samples.count == 4)
        // Six slices of ten seconds, ending at 60 s.
        #expect(history.values(\.leaks, buckets: 6) == [nil, nil, 1, 5, 2, 3])
    }

    @Test func theWindowFollowsTheNewestSampleAndKeepsTheValueItOpensWith() {
        var history = CounterHistory()
        history.record(counters(leaks: 1), at: .seconds(0))
        history.record(counters(leaks: 2), at: .seconds(10))
        history.record(counters(leaks: 3), at: .seconds(100))
        #expect(history.samples.map(\.time) == [.seconds(10), .seconds(100)], "one sample before the window")
        #expect(history.values(\.leaks, buckets: 3) == [2, 2, 3])
    }

    @Test func aClockThatGoesBackIsAnotherProcess() {
        var history = CounterHistory()
        history.record(counters(leaks: 1), at: .seconds(50))
        history.record(counters(leaks: 2), at: .seconds(3))
        #expect(history.samples.map(\.time) == [.seconds(3)])
        #expect(CounterHistory().values(\.leaks, buckets: 4).isEmpty)
    }
}
