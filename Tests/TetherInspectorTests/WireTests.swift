import Foundation
import Testing
import Tether

@testable import TetherInspector

@Suite struct WireTests {
    /// A report with every field set.
    static let report = InspectorLeakReport(
        owner: OwnerID(typeName: "ViewModel", serial: 2),
        ownerSite: .init(fileID: "App/ViewModel.swift", line: 12),
        endedAt: .seconds(10), foundAt: .milliseconds(10_300),
        survivors: [
            .init(
                kind: .task, site: .init(fileID: "App/ViewModel.swift", line: 20), deliveries: 7,
                deliveriesAfterEnd: 2, bound: false),
            .init(kind: .observer, site: .init(fileID: "App/ViewModel.swift", line: 21), bound: true),
        ],
        signature: "ViewModel ← task App/ViewModel.swift:20, observer App/ViewModel.swift:21",
        trace: "ViewModel#2 leaked: alive 300ms after its end\n╰─ task at ViewModel.swift:20")

    /// A growing site with every field set.
    static let growth = InspectorGrowthReport(
        owner: OwnerID(typeName: "Session", serial: 1),
        ownerSite: .init(fileID: "App/Session.swift", line: 8),
        kind: .subscription, site: .init(fileID: "App/Sheet.swift", line: 31), counts: [2, 3, 4], live: 4,
        signature: "Session grows subscription App/Sheet.swift:31",
        trace:
            "Session#1 grows: 4 subscriptions at Sheet.swift:31, +1 per repetition\n   fix: bind it to the sheet"
    )

    /// Every field set, none of them default: a round trip that loses one fails.
    static let full = InspectorSnapshot(
        sequence: 7, time: .milliseconds(12_345),
        counters: {
            var counters = InspectorSnapshot.Counters()
            (counters.owners, counters.subscriptions, counters.tasks, counters.observers) = (3, 4, 5, 6)
            (counters.bindings, counters.paused, counters.leaks, counters.ending, counters.zombies) = (
                7, 8, 9, 10, 11
            )
            return counters
        }(),
        owners: [
            .init(
                id: OwnerID(typeName: "ViewModel", serial: 2),
                site: .init(fileID: "App/ViewModel.swift", line: 12),
                state: .leaked, age: .microseconds(1_500_001),
                entries: [
                    .init(
                        kind: .task, owner: OwnerID(typeName: "ViewModel", serial: 2),
                        site: .init(fileID: "App/ViewModel.swift", line: 20), deliveries: 3,
                        age: .milliseconds(900), paused: true, bound: false)
                ])
        ],
        unowned: [.init(kind: .observer, site: .init(fileID: "App/Free.swift", line: 1), deliveries: 1)],
        leaks: [
            .init(
                owner: OwnerID(typeName: "ViewModel", serial: 2), kind: .task,
                site: .init(fileID: "App/ViewModel.swift", line: 20), endedAt: .seconds(10),
                survivors: [.init(fileID: "App/ViewModel.swift", line: 20)],
                signature: "ViewModel ← task App/ViewModel.swift:20", report: report),
            .init(
                owner: OwnerID(typeName: "Sheet", serial: 1), kind: nil,
                site: .init(fileID: "App/Sheet.swift", line: 5)),
        ],
        growth: [growth],
        events: [
            .init(
                time: .seconds(1), kind: .cancelled, owner: OwnerID(typeName: "ViewModel", serial: 1),
                entryKind: .subscription, site: .init(fileID: "App/ViewModel.swift", line: 30)),
            .init(time: .seconds(2), kind: .note, message: "presented \"orientation\"\nrotated"),
            .init(time: .seconds(3), kind: .releasedLate, owner: OwnerID(typeName: "Model<Int>", serial: 12)),
        ])

    func roundTrip(_ message: InspectorMessage) throws -> InspectorMessage? {
        let line = message.encodedLine()
        #expect(line.last == UInt8(ascii: "\n"))
        #expect(line.dropLast().contains(UInt8(ascii: "\n")) == false, "one line, newlines in text escaped")
        return try InspectorMessage.decode(line: line.dropLast())
    }

    @Test func aSnapshotSurvivesARoundTrip() throws {
        #expect(try roundTrip(.snapshot(Self.full)) == .snapshot(Self.full))
    }

    @Test func aLeakReportSurvivesARoundTrip() throws {
        #expect(try roundTrip(.leak(Self.report)) == .leak(Self.report))
        #expect(Self.report.headline == "ViewModel#2 leaked: alive 300ms after its end")
        #expect(Self.report.culprit?.kind == .observer, "the first survivor its lifetime could not end")
    }

    /// The wire's report says what the ledger's says: every field, and the trace as its text.
    @Test func aLedgersLeakReportReadsTheSameOnTheWire() throws {
        let clock = ManualClock()
        let ledger = Ledger(clock: clock)
        let subject = PassthroughSubject<Int, Never>()
        let owner = Ledger.$current.withValue(ledger) { LeakyOwner(subject) }
        subject.send(1)
        owner.bag.end()
        subject.send(2)
        clock.advance(by: ledger.gracePeriod)
        let leak = try #require(ledger.snapshotRearmingOnChange().leaks.first)
        let wire = InspectorLeakReport(leak.report)
        #expect(wire.owner == leak.report.owner)
        #expect(wire.ownerSite == InspectorSnapshot.Site(leak.report.ownerSite))
        #expect(wire.endedAt == leak.report.endedAt && wire.foundAt == leak.report.foundAt)
        #expect(wire.survivors.map(\.kind) == [.subscription])
        #expect(wire.survivors.first?.deliveries == 2 && wire.survivors.first?.deliveriesAfterEnd == 1)
        #expect(wire.survivors.first?.bound == false)
        #expect(wire.signature == leak.signature)
        #expect(wire.trace == leak.report.description)
        #expect(wire.headline == leak.report.headline)
        let snapshot = InspectorSnapshot(ledger.snapshotRearmingOnChange())
        #expect(snapshot.leaks.first?.report == wire)
        #expect(try roundTrip(.snapshot(snapshot)) == .snapshot(snapshot))
        withExtendedLifetime(owner) {}
    }

    /// A server from before leak reports sends leaks without `report`: read, with no report, and
    /// grouped by the owner's type and the binding they are named by.
    @Test func aLeakWithoutAReportIsReadAndGrouped() throws {
        let line =
            #"{"type":"snapshot","time":1,"counters":{},"owners":[],"leaks":["#
            + #"{"owner":"A#1","kind":"task","site":"M/A.swift:3","endedAt":0.5,"survivors":["M/A.swift:3"]},"#
            + #"{"owner":"A#2","kind":"task","site":"M/A.swift:3","endedAt":0.7,"survivors":["M/A.swift:3"]},"#
            + #"{"owner":"B#1","kind":"owner","site":"M/B.swift:9","endedAt":0.8,"survivors":[]}]}"#
        guard case .snapshot(let snapshot)? = try InspectorMessage.decode(line: Array(line.utf8)) else {
            Issue.record("not a snapshot")
            return
        }
        #expect(snapshot.leaks.allSatisfy { $0.report == nil && $0.signature == nil })
        #expect(snapshot.leakGroups.map(\.count) == [2, 1])
        #expect(snapshot.leakGroups.first?.signature == "A ← task M/A.swift:3")
        #expect(snapshot.leakGroups.last?.leaks.map(\.owner.description) == ["B#1"])
    }

    @Test func aGrowthReportSurvivesARoundTrip() throws {
        let line = try JSONEncoder().encode(Self.growth)
        #expect(try JSONDecoder().decode(InspectorGrowthReport.self, from: line) == Self.growth)
        #expect(
            Self.growth.headline == "Session#1 grows: 4 subscriptions at Sheet.swift:31, +1 per repetition")
        #expect(Self.growth.gainPerRepetition == 1)
    }

    /// The wire's growth says what the ledger's report says: every field, the trace as its text.
    @Test func aLedgersGrowthReportReadsTheSameOnTheWire() throws {
        let ledger = Ledger(clock: ManualClock())
        let subject = PassthroughSubject<Int, Never>()
        let session = Ledger.$current.withValue(ledger) { TestOwner(subject) }
        for _ in 0..<3 {
            subject.sink { _ in }.store(boundTo: session.bag)
            ledger.checkpoint()
        }
        let report = try #require(ledger.snapshotRearmingOnChange().growth.first)
        let wire = InspectorGrowthReport(report)
        #expect(wire.owner == report.owner && wire.ownerSite == InspectorSnapshot.Site(report.ownerSite))
        #expect(wire.kind == report.kind && wire.site == InspectorSnapshot.Site(report.site))
        #expect(wire.counts == report.counts && wire.live == report.live)
        #expect(wire.signature == report.signature && wire.trace == report.description)
        let snapshot = InspectorSnapshot(ledger.snapshotRearmingOnChange())
        #expect(snapshot.growth == [wire])
        #expect(try roundTrip(.snapshot(snapshot)) == .snapshot(snapshot))
        withExtendedLifetime(session) {}
    }

    /// A server that predates growth sends no `growth`: the snapshot grows nothing.
    @Test func aSnapshotWithoutGrowthGrowsNothing() throws {
        let line = #"{"type":"snapshot","time":1,"counters":{},"owners":[],"leaks":[]}"#
        guard case .snapshot(let snapshot)? = try InspectorMessage.decode(line: Array(line.utf8)) else {
            Issue.record("not a snapshot")
            return
        }
        #expect(snapshot.growth.isEmpty)
    }

    /// `growth` joined version 1 without changing it: the line of a snapshot with growth is the
    /// line without it plus one key, so a reader that predates growth — which skips keys it does
    /// not know — reads the rest as before.
    @Test func anOlderReaderReadsASnapshotWithGrowthAsBefore() throws {
        var without = Self.full
        without.growth = []
        func object(_ snapshot: InspectorSnapshot) throws -> NSDictionary {
            let line = InspectorMessage.snapshot(snapshot).encodedLine()
            return try #require(try JSONSerialization.jsonObject(with: Data(line)) as? NSDictionary)
        }
        let new = try object(Self.full).mutableCopy() as! NSMutableDictionary
        let old = try object(without).mutableCopy() as! NSMutableDictionary
        #expect((new["growth"] as? [Any])?.count == 1)
        new.removeObject(forKey: "growth")
        old.removeObject(forKey: "growth")
        #expect(new == old)
        let stripped = try JSONSerialization.data(withJSONObject: new)
        #expect(try InspectorMessage.decode(line: Array(stripped)) == .snapshot(without))
        #expect(InspectorMessage.protocolVersion == 1)
    }

    @Test func leaksOfOneSignatureFormOneGroupInTheOrderFound() {
        func leak(_ type: String, _ serial: Int, _ signature: String) -> InspectorSnapshot.Leak {
            .init(
                owner: OwnerID(typeName: type, serial: serial), kind: .task,
                site: .init(fileID: "M/F.swift", line: 1),
                signature: signature)
        }
        let snapshot = InspectorSnapshot(leaks: [leak("A", 1, "a"), leak("B", 1, "b"), leak("A", 2, "a")])
        #expect(snapshot.leakGroups.map(\.signature) == ["a", "b"])
        #expect(snapshot.leakGroups.map(\.count) == [2, 1])
        #expect(InspectorSnapshot().leakGroups.isEmpty)
    }

    @Test func aHelloSurvivesARoundTrip() throws {
        let hello = InspectorHello(pid: 4242, process: "my app")
        #expect(try roundTrip(.hello(hello)) == .hello(hello))
        #expect(hello.version == InspectorMessage.protocolVersion)
    }

    /// What a real ledger records: owners, entries, a leak, notes and events, on a manual clock.
    @Test func aLedgersSnapshotSurvivesARoundTrip() throws {
        let clock = ManualClock()
        let ledger = Ledger(clock: clock)
        let subject = PassthroughSubject<Int, Never>()
        let (kept, leaked) = Ledger.$current.withValue(ledger) {
            let kept = TestOwner(subject)
            let leaked = TestOwner(subject)
            clock.advance(by: .milliseconds(250))
            subject.send(1)
            leaked.bag.dispose()  // ended, but the object is held: a leak once the grace period passes
            ledger.note("dismissed")
            return (kept, leaked)
        }
        clock.advance(by: .seconds(1))
        let snapshot = ledger.snapshotRearmingOnChange()
        #expect(snapshot.leaks.count == 1)
        let wire = InspectorSnapshot(snapshot, sequence: 3)
        #expect(wire.counters == snapshot.counters)
        #expect(wire.owners.map(\.id) == snapshot.owners.map(\.id))
        #expect(
            wire.owners.first?.entries.first?.deliveries == snapshot.owners.first?.entries.first?.deliveries)
        #expect(wire.owners.first?.site.description == snapshot.owners.first?.site.description)
        #expect(wire.leaks.first?.owner == leaked.bag.ownerID)
        #expect(wire.leaks.first?.kindName == "owner")
        #expect(wire.events.map(\.kind) == snapshot.events.map(\.kind))
        #expect(wire.events.map(\.summary) == snapshot.events.map(\.summary), "a log line reads the same")
        #expect(
            snapshot.events.contains { $0.summary.hasPrefix("created subscription \(kept.bag.ownerID!)") })
        #expect(wire.notes == ["dismissed"])
        #expect(wire.time == .milliseconds(1250))
        #expect(try roundTrip(.snapshot(wire)) == .snapshot(wire))
        withExtendedLifetime((kept, leaked)) {}
    }

    /// The fields `tether-lab attach --dump json` prints, under the names it prints them.
    @Test func aSnapshotLineHasWhatTheDumpPrints() throws {
        let line = InspectorMessage.snapshot(Self.full).encodedLine()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
        #expect(object["type"] as? String == "snapshot")
        let counters = try #require(object["counters"] as? [String: Int])
        #expect(counters["owners"] == 3 && counters["zombies"] == 11 && counters.count == 10)
        let owner = try #require((object["owners"] as? [[String: Any]])?.first)
        #expect(owner["id"] as? String == "ViewModel#2")
        #expect(owner["site"] as? String == "App/ViewModel.swift:12")
        #expect(owner["state"] as? String == "leaked")
        let entry = try #require((owner["entries"] as? [[String: Any]])?.first)
        #expect(entry["kind"] as? String == "task")
        #expect(entry["site"] as? String == "App/ViewModel.swift:20")
        #expect(entry["deliveries"] as? Int == 3)
        let leaks = try #require(object["leaks"] as? [[String: Any]])
        #expect(leaks[0]["owner"] as? String == "ViewModel#2")
        #expect(leaks[0]["kind"] as? String == "task")
        #expect(leaks[0]["signature"] as? String == "ViewModel ← task App/ViewModel.swift:20")
        #expect(leaks[1]["kind"] as? String == "owner")
        #expect(Self.full.owners[0].site.description == "ViewModel.swift:12")
    }

    /// The hello line, byte for byte: its four fields never change meaning across versions.
    @Test func theHelloLineIsStable() {
        let line = InspectorMessage.hello(InspectorHello(pid: 7, process: "lab")).encodedLine()
        #expect(
            String(decoding: line, as: UTF8.self) == #"{"pid":7,"process":"lab","type":"hello","version":1}"#
                + "\n")
    }

    /// A line as a version-1 server writes it, by hand: the protocol, not just this encoder.
    @Test func decodesAHandWrittenSnapshot() throws {
        let line = #"""
            {"type":"snapshot","sequence":2,"time":1.5,"counters":{"owners":1,"tasks":1},
            "owners":[{"id":"Model#1","site":"App/Model.swift:3","state":"ended","age":0.25,
            "entries":[{"kind":"task","site":"App/Model.swift:9","deliveries":0,"age":0.000001,"paused":false,"bound":true}]}],
            "leaks":[],"events":[{"time":1.0,"kind":"owner ended","owner":"Model#1","site":"App/Model.swift:3"}]}
            """#.replacingOccurrences(of: "\n", with: "")
        let message = try InspectorMessage.decode(line: Array(line.utf8))
        guard case .snapshot(let snapshot)? = message else {
            Issue.record("not a snapshot: \(String(describing: message))")
            return
        }
        #expect(
            snapshot.counters.tasks == 1 && snapshot.counters.subscriptions == 0, "missing counters read as 0"
        )
        #expect(snapshot.owners[0].state == .ended)
        #expect(snapshot.owners[0].entries[0].age == .microseconds(1))
        #expect(snapshot.unowned.isEmpty, "an absent list reads as empty")
        #expect(snapshot.events[0].kind == .ownerEnded)
    }

    /// A count the ledger could not keep travels as no `deliveries` at all, never as 0, and an
    /// entry without one reads back as not counted; one with a count reads as before.
    @Test func aCountTheLedgerCouldNotKeepIsAbsentOnTheWire() throws {
        let site = InspectorSnapshot.Site(fileID: "App/Model.swift", line: 9)
        let uncounted = InspectorSnapshot.Entry(kind: .subscription, site: site, deliveries: nil)
        let encoded = try JSONEncoder().encode(uncounted)
        let object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        #expect(object["deliveries"] == nil && object["kind"] as? String == "subscription")
        #expect(try JSONDecoder().decode(InspectorSnapshot.Entry.self, from: encoded).deliveries == nil)

        let counted = Data(
            #"{"kind":"task","site":"App/Model.swift:9","deliveries":4,"age":0,"paused":false,"bound":true}"#
                .utf8)
        #expect(try JSONDecoder().decode(InspectorSnapshot.Entry.self, from: counted).deliveries == 4)

        let survivor = InspectorLeakReport.Survivor(
            kind: .subscription, site: site, deliveries: nil, deliveriesAfterEnd: nil)
        let survivorData = try JSONEncoder().encode(survivor)
        let survivorObject = try #require(
            try JSONSerialization.jsonObject(with: survivorData) as? [String: Any])
        #expect(survivorObject["deliveries"] == nil && survivorObject["deliveriesAfterEnd"] == nil)
        #expect(try JSONDecoder().decode(InspectorLeakReport.Survivor.self, from: survivorData) == survivor)
    }

    @Test func unknownFieldsAreIgnored() throws {
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(InspectorMessage.snapshot(Self.full).encodedLine()))
                as? [String: Any])
        object["future"] = ["nested": [1, 2, 3]]
        var owners = try #require(object["owners"] as? [[String: Any]])
        owners[0]["color"] = "red"
        object["owners"] = owners
        let line = try JSONSerialization.data(withJSONObject: object)
        #expect(try InspectorMessage.decode(line: line) == .snapshot(Self.full))
        let hello = #"{"type":"hello","version":1,"pid":1,"process":"p","host":"h"}"#
        #expect(
            try InspectorMessage.decode(line: Array(hello.utf8))
                == .hello(InspectorHello(pid: 1, process: "p")))
    }

    @Test func aMessageOfAnUnknownTypeIsSkipped() throws {
        #expect(try InspectorMessage.decode(line: Array(#"{"type":"gauge","owner":"A#1"}"#.utf8)) == nil)
    }

    @Test func anEventOfAnUnknownKindIsSkipped() throws {
        let line =
            #"{"type":"snapshot","time":0,"counters":{},"owners":[],"leaks":[],"#
            + #""events":[{"time":1,"kind":"teleported"},{"time":2,"kind":"note","message":"kept"}]}"#
        guard case .snapshot(let snapshot)? = try InspectorMessage.decode(line: Array(line.utf8)) else {
            Issue.record("not a snapshot")
            return
        }
        #expect(snapshot.notes == ["kept"])
        #expect(snapshot.events.count == 1)
    }

    @Test func aHelloOfAnotherVersionIsRejected() {
        for version in ["2", "0", "-1", "99999999999"] {
            let line = #"{"type":"hello","version":\#(version),"pid":1,"process":"p","shape":"new"}"#
            #expect(throws: LedgerClientError.versionMismatch(server: Int(version)!, client: 1)) {
                try InspectorMessage.decode(line: Array(line.utf8))
            }
        }
        #expect(throws: LedgerClientError.versionMismatch(server: 0, client: 1)) {
            try InspectorMessage.decode(line: Array(#"{"type":"hello","pid":1,"process":"p"}"#.utf8))
        }
        #expect(
            LedgerClientError.versionMismatch(server: 2, client: 1).description
                == "the server speaks inspector protocol version 2; this client speaks version 1")
    }

    @Test(arguments: [
        ("", "not valid JSON"),
        ("hello", "not valid JSON"),
        ("[1,2]", "the line"),
        (#"{"version":1}"#, "missing type"),
        (#"{"type":"snapshot"}"#, "snapshot: missing time"),
        (#"{"type":"snapshot","time":"soon","counters":{},"owners":[],"leaks":[]}"#, "snapshot: time"),
        (#"{"type":"snapshot","time":1e300,"counters":{},"owners":[],"leaks":[]}"#, "not a duration"),
        (
            #"{"type":"snapshot","time":0,"counters":{"tasks":1.5},"owners":[],"leaks":[]}"#,
            "a number that does not fit"
        ),
        (
            #"{"type":"snapshot","time":0,"counters":{},"owners":[{"id":"NoSerial","site":"a:1","state":"alive","age":0,"entries":[]}],"leaks":[]}"#,
            "not an owner id"
        ),
        (
            #"{"type":"snapshot","time":0,"counters":{},"owners":[{"id":"A#1","site":"nowhere","state":"alive","age":0,"entries":[]}],"leaks":[]}"#,
            "not a call site"
        ),
        (
            #"{"type":"snapshot","time":0,"counters":{},"owners":[{"id":"A#1","site":"a:1","state":"zombie","age":0,"entries":[]}],"leaks":[]}"#,
            "unknown owner state"
        ),
        (
            #"{"type":"snapshot","time":0,"counters":{},"owners":[],"leaks":[{"owner":"A#1","kind":"ghost","site":"a:1","endedAt":0,"survivors":[]}]}"#,
            "unknown leak kind"
        ),
        (
            #"{"type":"snapshot","time":0,"counters":{"observers":9223372036854775807},"owners":[],"leaks":[]}"#,
            "snapshot: counters.observers: not a count: 9223372036854775807"
        ),
        (
            #"{"type":"snapshot","time":0,"counters":{"leaks":-1},"owners":[],"leaks":[]}"#,
            "counters.leaks: not a count: -1"
        ),
        (
            #"{"type":"snapshot","time":0,"counters":{},"owners":[{"id":"A#1","site":"a:1","state":"alive","age":0,"entries":[{"kind":"task","site":"a:2","deliveries":9007199254740992,"age":0,"paused":false,"bound":true}]}],"leaks":[]}"#,
            "deliveries: not a count: 9007199254740992"
        ),
        (
            #"{"type":"snapshot","time":0,"counters":{},"owners":[],"leaks":[],"growth":[{"owner":"A#1","ownerSite":"a:1","kind":"task","site":"a:2","counts":[-9223372036854775808,0],"live":0,"signature":"s","trace":"t"}]}"#,
            "counts: not a count: -9223372036854775808"
        ),
        (
            #"{"type":"hello","version":1,"pid":1e10,"process":"p"}"#,
            "hello: not valid JSON, or a number that does not fit"
        ),
    ])
    func malformedLinesAreRejectedWithAReason(line: String, reason: String) {
        do {
            _ = try InspectorMessage.decode(line: Array(line.utf8))
            Issue.record("accepted \(line)")
        } catch {
            guard case .malformedLine(let text) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(text.contains(reason), "\(text)")
            #expect(!text.contains("\n") && text.count <= 200)
        }
    }

    @Test func sitesAndOwnerIDsReadAsText() throws {
        let site = InspectorSnapshot.Site(CallSite(fileID: "Lab/Sheet.swift", line: 40))
        #expect(site.fileID == "Lab/Sheet.swift" && site.line == 40)
        #expect(site.description == "Sheet.swift:40" && site.file == "Sheet.swift")
        #expect(InspectorSnapshot.Site(fileID: "bare.swift", line: 1).file == "bare.swift")
        // A colon in the file's name: the line is after the last one.
        let odd = InspectorSnapshot(owners: [
            .init(id: OwnerID(typeName: "A#B", serial: 3), site: .init(fileID: "M/a:b.swift", line: 2))
        ])
        #expect(try roundTrip(.snapshot(odd)) == .snapshot(odd))
    }

    @Test func durationsKeepMicroseconds() {
        #expect(Duration.nanoseconds(1_499).roundedToMicroseconds == .microseconds(1))
        #expect(Duration.nanoseconds(1_500).roundedToMicroseconds == .microseconds(2))
        #expect(Duration(wireSeconds: 1.000001) == .microseconds(1_000_001))
        #expect(Duration(wireSeconds: .infinity) == nil)
        #expect(Duration(wireSeconds: -2e9) == nil)
        #expect(Duration.milliseconds(-1_500).wireSeconds == -1.5)
    }

    /// The protocol article's example lines are lines of this protocol: a hello, a snapshot and a
    /// leak.
    @Test func theArticlesExamplesDecode() throws {
        let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/TetherInspector/TetherInspector.docc/InspectorProtocol.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        let examples = text.components(separatedBy: "```json\n").dropFirst().map {
            $0.components(separatedBy: "\n```")[0]
        }
        #expect(examples.count == 3)
        let messages = try examples.map { try InspectorMessage.decode(line: Array($0.utf8)) }
        guard case .hello(let hello)? = messages.first,
            case .snapshot(let snapshot)? = messages.dropFirst().first
        else {
            Issue.record("\(messages)")
            return
        }
        #expect(hello.version == 1)
        #expect(snapshot.leaks.first?.kindName == "task" && snapshot.owners.first?.state == .leaked)
        guard case .leak(let report)? = messages.last else {
            Issue.record("the last example is not a leak: \(messages)")
            return
        }
        #expect(report.survivors.first?.deliveriesAfterEnd == 2)
        #expect(snapshot.leaks.first?.report == report, "the snapshot's leak carries the same report")
    }
}
