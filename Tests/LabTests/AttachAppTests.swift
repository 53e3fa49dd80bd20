import Foundation
import TerminalUI
import Testing
import Tether
import TetherInspector

@testable import Lab

/// Attach on the in-memory backend, fed events by hand as `AttachSession` feeds them from a socket,
/// proved on state: the connection, the status line's note, the inspector, the stack. What attach
/// says is `AttachScreenTests`'.
@MainActor
@Suite struct AttachAppTests {
    let hello = InMemoryAttach.hello

    @Test func theInspectorShowsTheProcesssLedgerAndTheNoteItsLastChange() {
        let app = InMemoryAttach().app
        #expect(app.connection == .connected(hello))
        #expect(app.note == nil, "waiting for the first snapshot")
        app.receive(.snapshot(WireFixtures.snapshot()))
        guard case .lastChange? = app.note else {
            Issue.record("the note is the last change, not \(String(describing: app.note))")
            return
        }
        #expect(app.inspector.snapshot == WireFixtures.snapshot())
        #expect(app.inspector.ownersLabel == "owners", "attach calls owners owners")
    }

    @Test func aLeakMessageIsNotedAndEnterOpensTheReport() throws {
        let app = InMemoryAttach().app
        app.receive(.snapshot(WireFixtures.snapshot()))
        let report = try #require(WireFixtures.leak("OrientationViewModel", 3).report)
        app.receive(.leak(report))
        guard case .leakFound(let noted, _)? = app.note else {
            Issue.record("the note is the leak, not \(String(describing: app.note))")
            return
        }
        #expect(noted == report)
        app.application.send([.down, .enter])
        #expect(app.application.stack.ids == ["attach", "report"])
        let group = try #require(app.application.stack.top as? LeakReportScreen).group
        #expect(
            group.leaks.map(\.owner.description) == [
                "OrientationViewModel#1", "OrientationViewModel#2", "OrientationViewModel#3",
            ])
        app.application.send(.escape)
        #expect(app.application.stack.ids == ["attach"])
    }

    /// The connection lost: the last state kept, then why the last retry failed; regained: a note
    /// that names the new process, gone at the next key, and a history of its own.
    @Test func aLostConnectionKeepsTheLastStateAndAReconnectionIsNoted() {
        let app = InMemoryAttach().app
        app.receive(.snapshot(WireFixtures.snapshot()))
        app.receive(.disconnected(.serverClosed))
        let closed = LedgerClient.DisconnectReason.serverClosed.description
        #expect(app.connection == .disconnected(reason: closed, last: hello, retry: nil))
        #expect(app.note == nil)
        #expect(app.inspector.snapshot == WireFixtures.snapshot(), "the last state stays")
        let refused = LedgerClientError.connectionRefused(path: "/tmp/myapp.sock")
        app.retryFailed(refused)
        #expect(app.connection == .disconnected(reason: closed, last: hello, retry: refused.description))

        let next = InspectorHello(pid: 5151, process: "myapp")
        app.connected(next)
        app.receive(.snapshot(InspectorSnapshot(time: .seconds(1))))
        #expect(app.connection == .connected(next))
        guard case .reconnected(next, was: hello, _)? = app.note else {
            Issue.record("the note is the reconnection, not \(String(describing: app.note))")
            return
        }
        #expect(app.inspector.history.samples.count == 1, "another process: its own history")
        app.application.send(.down)
        #expect(app.note == nil, "the note goes at the next key")
    }

    @Test func slashFiltersAndQuestionMarkOpensHelpAndQQuits() throws {
        let app = InMemoryAttach().app
        app.receive(.snapshot(WireFixtures.snapshot()))
        app.application.send([.character("/"), .character("s"), .character("h"), .character("q")])
        #expect(!app.application.isFinished, "q typed into the filter")
        #expect(app.inspector.isEditingFilter && app.inspector.filter == "shq")
        let top = try #require(app.application.stack.top)
        #expect(
            app.application.footerHints(top) == app.keyMap.hints(for: .filter),
            "only the filter's keys work while it is typed")
        app.application.send(.enter)
        #expect(!app.inspector.isEditingFilter && app.inspector.filter == "shq", "Enter keeps it")
        app.application.send(.escape)
        #expect(app.inspector.filter.isEmpty, "Esc clears it")
        app.application.send(.character("?"))
        #expect(app.application.stack.ids == ["attach", "help"])
        #expect(try #require(app.application.stack.top as? HelpScreen).text == app.keyMap.attachHelpText)
        app.application.send(.character("?"))
        #expect(app.application.stack.ids == ["attach"])
        app.application.send(.character("q"))
        #expect(app.application.isFinished)
    }

    @Test func theWheelMovesTheSelection() {
        let app = InMemoryAttach().app
        app.receive(.snapshot(WireFixtures.snapshot()))
        app.application.send(.mouse(MouseEvent(.wheelDown, at: Point(x: 5, y: 10))))
        #expect(app.inspector.selection == app.inspector.content.items[2])
        app.application.send(.mouse(MouseEvent(.wheelUp, at: Point(x: 5, y: 10))))
        #expect(app.inspector.selection == app.inspector.content.items[0])
    }

    @Test func theDumpHasTheDesignsFields() throws {
        let dump = AttachDump(hello: hello, snapshot: WireFixtures.snapshot())
        let object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(dump)) as? [String: Any])
        #expect(Set(object.keys) == ["process", "pid", "counters", "owners", "leaks", "growth"])
        #expect(dump.process == "myapp" && dump.pid == 4242)
        #expect(
            dump.owners.first?.entries.first
                == AttachDump.Entry(kind: "subscription", site: "Model.swift:20", deliveries: 0))
        #expect(dump.owners.map(\.state).filter { $0 == "leaked" }.count == 3)
        #expect(
            dump.leaks.first
                == AttachDump.Leak(
                    owner: "OrientationViewModel#1", kind: "task", site: "OrientationViewModel.swift:46",
                    signature: "OrientationViewModel ← task App/OrientationViewModel.swift:46"))
        let counters = try #require(object["counters"] as? [String: Int])
        #expect(counters["leaks"] == 3 && counters["owners"] == 6)
        #expect(dump.growth.isEmpty)
        let growing = AttachDump(hello: hello, snapshot: WireFixtures.growingSnapshot())
        #expect(
            growing.growth == [
                AttachDump.Growth(
                    owner: "Model#2", kind: "subscription", site: "Model.swift:33", live: 3,
                    signature: "Model grows subscription App/Model.swift:33", scope: "default")
            ])
    }

    /// An entry whose count the ledger could not keep has no `deliveries` in the dump, not a 0.
    @Test func theDumpLeavesOutACountTheLedgerCouldNotKeep() throws {
        var snapshot = WireFixtures.snapshot()
        snapshot.owners[0].entries[0].deliveries = nil
        let dump = AttachDump(hello: hello, snapshot: snapshot)
        #expect(dump.owners.first?.entries.first?.deliveries == nil)
        let object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(dump)) as? [String: Any])
        let owners = try #require(object["owners"] as? [[String: Any]])
        let entry = try #require((owners.first?["entries"] as? [[String: Any]])?.first)
        #expect(entry["deliveries"] == nil && entry["site"] as? String == "Model.swift:20")
    }

    /// Attach lists growth in the same inspector as the lab: above the leaks, so ↓ selects it
    /// first, and Enter opens its report.
    @Test func aGrowingSiteIsListedAndEnterOpensItsReport() throws {
        let app = InMemoryAttach().app
        app.receive(.snapshot(WireFixtures.growingSnapshot()))
        #expect(app.inspector.content.growth == [WireFixtures.growth()])
        app.application.send(.down)
        #expect(app.inspector.selection == InspectorContent.item(WireFixtures.growth()))
        app.application.send(.enter)
        #expect(app.application.stack.ids == ["attach", "growth-report"])
        #expect(
            try #require(app.application.stack.top as? GrowthReportScreen).report == WireFixtures.growth())
        app.application.send(.escape)
        #expect(app.application.stack.ids == ["attach"])
    }
}
