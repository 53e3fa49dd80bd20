import Foundation
import TerminalUI
import Testing
import Tether
import TetherInspector

@testable import Lab

/// Attach on the in-memory backend, fed events by hand as `AttachSession` feeds them from a socket.
@MainActor
@Suite struct AttachAppTests {
    let hello = InspectorHello(pid: 4242, process: "myapp")

    func attach(size: Size = Size(width: 120, height: 30)) -> (AttachApp, TestBackend) {
        let backend = TestBackend(size: size)
        let app = AttachApp(backend: backend, path: "/tmp/myapp.sock", hello: hello)
        return (app, backend)
    }

    func screen(_ app: AttachApp, _ backend: TestBackend) -> String {
        app.application.render()
        return backend.trimmedTextLines.joined(separator: "\n")
    }

    @Test func theHeaderNamesTheProcessAndTheInspectorShowsItsLedger() {
        let (app, backend) = attach()
        #expect(screen(app, backend).contains("waiting for the first snapshot"))
        app.receive(.snapshot(WireFixtures.snapshot()))
        let text = screen(app, backend)
        #expect(text.contains("myapp  pid 4242  ● connected  /tmp/myapp.sock"))
        #expect(text.contains("last change at"))
        #expect(text.contains("OrientationViewModel ← task OrientationViewModel.swift:46 ×3"))
        #expect(text.contains("owners           6"), "attach calls owners owners")
        #expect(text.contains("↑/↓ select") && text.contains("q quit"))
    }

    /// The largest counts the protocol carries, in every counter and a growth's counts: shown,
    /// sparklines and sums included, without overflowing.
    @Test func theLargestCountsAreShown() throws {
        let largest = LedgerSnapshot.Counters.largestCount
        let names = [
            "owners", "subscriptions", "tasks", "observers", "bindings", "paused", "leaks", "ending",
        ]
        let counters = (names + ["zombies", "growing"]).map { "\"\($0)\":\(largest)" }.joined(separator: ",")
        let growth =
            #"{"owner":"A#1","ownerSite":"M/A.swift:1","kind":"subscription","site":"M/A.swift:2","counts":[0,"#
            + "\(largest)],\"live\":\(largest)," + #""signature":"A grows","trace":"A#1 grows"}"#
        let line =
            "{\"type\":\"snapshot\",\"time\":1,\"counters\":{\(counters)},\"owners\":[],\"leaks\":[],"
            + "\"growth\":[\(growth)]}"
        guard case .snapshot(let snapshot)? = try InspectorMessage.decode(line: Array(line.utf8)) else {
            Issue.record("not a snapshot")
            return
        }
        let (app, backend) = attach(size: Size(width: 300, height: 40))
        app.receive(.snapshot(snapshot))
        app.receive(.snapshot(snapshot))
        #expect(screen(app, backend).contains("\(largest)"))
    }

    @Test func aLeakMessageIsNotedAndEnterOpensTheReport() {
        let (app, backend) = attach()
        app.receive(.snapshot(WireFixtures.snapshot()))
        let leak = WireFixtures.leak("OrientationViewModel", 3)
        app.receive(.leak(try! #require(leak.report)))
        #expect(screen(app, backend).contains("leak found at"))
        app.application.send(.down)
        app.application.send(.enter)
        #expect(app.application.stack.ids == ["attach", "report"])
        let text = screen(app, backend)
        #expect(text.contains("3 of this shape: OrientationViewModel#1, OrientationViewModel#2,"))
        #expect(text.contains("fix: store the task"))
        app.application.send(.escape)
        #expect(app.application.stack.ids == ["attach"])
    }

    /// The connection lost: a banner, the last state still on screen; regained: a note that
    /// names the new pid, gone at the next key.
    @Test func aLostConnectionKeepsTheLastStateAndAReconnectionIsNoted() {
        let (app, backend) = attach()
        app.receive(.snapshot(WireFixtures.snapshot()))
        app.receive(.disconnected(.serverClosed))
        var text = screen(app, backend)
        #expect(text.contains("● disconnected"))
        #expect(text.contains("disconnected: the server closed the connection."))
        #expect(text.contains("OrientationViewModel#1 LEAKED"), "the last state stays")
        app.retryFailed(.connectionRefused(path: "/tmp/myapp.sock"))
        #expect(screen(app, backend).contains("last try: /tmp/myapp.sock: connection refused"))

        app.connected(InspectorHello(pid: 5151, process: "myapp"))
        app.receive(.snapshot(InspectorSnapshot(time: .seconds(1))))
        text = screen(app, backend)
        #expect(text.contains("● connected"))
        #expect(text.contains("reconnected at") && text.contains("(pid 5151, was 4242)"))
        #expect(app.inspector.history.samples.count == 1, "another process: its own history")
        app.application.send(.down)
        #expect(!screen(app, backend).contains("reconnected at"))
    }

    @Test func slashFiltersAndQuestionMarkOpensHelpAndQQuits() {
        let (app, backend) = attach()
        app.receive(.snapshot(WireFixtures.snapshot()))
        app.application.send([.character("/"), .character("s"), .character("h"), .character("q")])
        #expect(!app.application.isFinished, "q typed into the filter")
        #expect(
            screen(app, backend).split(separator: "\n").last == "Enter keep  Esc clear",
            "only the filter's keys work while it is typed")
        app.application.send(.enter)
        let text = screen(app, backend)
        #expect(text.contains("filter: shq"))
        app.application.send(.escape)
        app.application.send(.character("?"))
        #expect(app.application.stack.ids == ["attach", "help"])
        #expect(screen(app, backend).contains("Watching a process"))
        app.application.send(.character("?"))
        app.application.send(.character("q"))
        #expect(app.application.isFinished)
    }

    @Test func theWheelMovesTheSelection() {
        let (app, _) = attach()
        app.receive(.snapshot(WireFixtures.snapshot()))
        app.application.send(.mouse(MouseEvent(.wheelDown, at: Point(x: 5, y: 10))))
        #expect(app.inspector.selection == app.inspector.content.items[2])
        app.application.send(.mouse(MouseEvent(.wheelUp, at: Point(x: 5, y: 10))))
        #expect(app.inspector.selection == app.inspector.content.items[0])
    }

    @Test func tooSmallSaysHowBigItMustBe() {
        let (app, backend) = attach(size: Size(width: 40, height: 10))
        #expect(screen(app, backend).contains("needs 64×16, have 40×10"))
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
                    signature: "Model grows subscription App/Model.swift:33")
            ])
    }

    /// Attach shows growth in the same inspector as the lab: above the leaks, Enter opens it.
    @Test func aGrowingSiteIsListedAndEnterOpensItsReport() {
        let (app, backend) = attach()
        app.receive(.snapshot(WireFixtures.growingSnapshot()))
        let text = screen(app, backend)
        #expect(text.contains("Growing: 1 site"))
        #expect(text.contains("Model#2 ← Model.swift:33 3 live +1/rep"))
        app.application.send(.down)
        app.application.send(.enter)
        #expect(app.application.stack.ids == ["attach", "growth-report"])
        let report = screen(app, backend)
        #expect(report.contains("Model#2 grows: 3 subscriptions at Model.swift:33"))
        #expect(report.contains("Esc close"), "the footer says how to close it")
        app.application.send(.escape)
        #expect(app.application.stack.ids == ["attach"])
    }
}
