import TerminalUI
import Testing
import Tether
import TetherInspector

@testable import Lab

/// What the user reads in attach: the header naming the process and the connection, the status
/// line's notes, the inspector's rows, the reports, the footer, and how big the terminal must
/// be. The flows behind them are proved on state by `AttachAppTests`; these tests prove only the
/// words.
@MainActor
@Suite struct AttachScreenTests {
    @Test func theHeaderNamesTheProcessAndTheInspectorShowsItsLedger() {
        let attach = InMemoryAttach()
        #expect(attach.screenText.contains("waiting for the first snapshot"))
        attach.app.receive(.snapshot(WireFixtures.snapshot()))
        let text = attach.screenText
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
        let attach = InMemoryAttach(size: Size(width: 300, height: 40))
        attach.app.receive(.snapshot(snapshot))
        attach.app.receive(.snapshot(snapshot))
        #expect(attach.screenText.contains("\(largest)"))
    }

    @Test func aLeakMessageIsNotedAndItsReportReadsAsTheTrace() {
        let attach = InMemoryAttach()
        attach.app.receive(.snapshot(WireFixtures.snapshot()))
        attach.app.receive(.leak(try! #require(WireFixtures.leak("OrientationViewModel", 3).report)))
        #expect(attach.screenText.contains("leak found at"))
        attach.app.application.send([.down, .enter])
        let text = attach.screenText
        #expect(text.contains("3 of this shape: OrientationViewModel#1, OrientationViewModel#2,"))
        #expect(text.contains("fix: store the task"))
    }

    /// Lost: a banner, the last state still on screen, then why the last try failed; regained:
    /// a note that names the new pid, gone at the next key.
    @Test func aLostConnectionIsABannerAndAReconnectionANote() {
        let attach = InMemoryAttach()
        attach.app.receive(.snapshot(WireFixtures.snapshot()))
        attach.app.receive(.disconnected(.serverClosed))
        var text = attach.screenText
        #expect(text.contains("● disconnected"))
        #expect(text.contains("disconnected: the server closed the connection."))
        #expect(text.contains("OrientationViewModel#1 LEAKED"), "the last state stays")
        attach.app.retryFailed(.connectionRefused(path: "/tmp/myapp.sock"))
        #expect(attach.screenText.contains("last try: /tmp/myapp.sock: connection refused"))

        attach.app.connected(InspectorHello(pid: 5151, process: "myapp"))
        attach.app.receive(.snapshot(InspectorSnapshot(time: .seconds(1))))
        text = attach.screenText
        #expect(text.contains("● connected"))
        #expect(text.contains("reconnected at") && text.contains("(pid 5151, was 4242)"))
        attach.app.application.send(.down)
        #expect(!attach.screenText.contains("reconnected at"))
    }

    /// While a filter is typed, the footer shows the filter's keys alone; the filter stays in
    /// sight once kept. Attach's help is its own.
    @Test func theFilterAndTheHelpSayWhatTheyAre() {
        let attach = InMemoryAttach()
        attach.app.receive(.snapshot(WireFixtures.snapshot()))
        attach.app.application.send([.character("/"), .character("s"), .character("h"), .character("q")])
        #expect(
            attach.screenText.split(separator: "\n").last == "Enter keep  Esc clear",
            "only the filter's keys work while it is typed")
        attach.app.application.send(.enter)
        #expect(attach.screenText.contains("filter: shq"))
        attach.app.application.send([.escape, .character("?")])
        #expect(attach.screenText.contains("Watching a process"))
    }

    @Test func tooSmallSaysHowBigItMustBe() {
        let attach = InMemoryAttach(size: Size(width: 40, height: 10))
        #expect(attach.screenText.contains("needs 64×16, have 40×10"))
    }

    /// Attach lists growth as the lab does: above the leaks, one row; its report reads as the
    /// trace, and the footer says how to close it.
    @Test func aGrowingSiteIsARowAndItsReportSaysHowItGrows() {
        let attach = InMemoryAttach()
        attach.app.receive(.snapshot(WireFixtures.growingSnapshot()))
        let text = attach.screenText
        #expect(text.contains("Growing: 1 site"))
        #expect(text.contains("Model#2 ← Model.swift:33 3 live +1/rep"))
        attach.app.application.send([.down, .enter])
        let report = attach.screenText
        #expect(report.contains("Model#2 grows: 3 subscriptions at Model.swift:33"))
        #expect(report.contains("Esc close"), "the footer says how to close it")
    }
}
