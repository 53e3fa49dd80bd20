import Tether
import TetherInspector

/// Wire snapshots for the inspector's tests, built by hand: owners in each state, leaks that
/// share a signature.
enum WireFixtures {
    static func site(_ file: String, _ line: Int) -> InspectorSnapshot.Site {
        InspectorSnapshot.Site(fileID: "App/\(file)", line: line)
    }

    static func owner(
        _ type: String, _ serial: Int, _ state: LedgerSnapshot.Owner.State = .alive, entries: Int = 1
    ) -> InspectorSnapshot.Owner {
        let id = OwnerID(typeName: type, serial: serial)
        return InspectorSnapshot.Owner(
            id: id, site: site("\(type).swift", 10), state: state, age: .seconds(2),
            entries: (0..<entries).map {
                InspectorSnapshot.Entry(
                    kind: .subscription, owner: id, site: site("\(type).swift", 20 + $0), deliveries: $0)
            })
    }

    /// A leak of `type#serial`, kept by an unbound task at `type.swift:46`; leaks of one type share
    /// a signature.
    static func leak(_ type: String, _ serial: Int) -> InspectorSnapshot.Leak {
        let owner = OwnerID(typeName: type, serial: serial)
        let signature = "\(type) ← task App/\(type).swift:46"
        let report = InspectorLeakReport(
            owner: owner, ownerSite: site("\(type).swift", 10), endedAt: .seconds(1),
            foundAt: .milliseconds(1300),
            survivors: [
                .init(kind: .task, site: site("\(type).swift", 46), deliveries: 5, deliveriesAfterEnd: 2)
            ],
            signature: signature,
            trace: "\(owner) leaked: alive 300ms after its end (tracked at \(type).swift:10)\n"
                + "╰─ task at \(type).swift:46, not bound to its owner\n"
                + "   5 values delivered, 2 after the end\n   fix: store the task in the owner's bag")
        return InspectorSnapshot.Leak(
            owner: owner, kind: .task, site: site("\(type).swift", 46), endedAt: .seconds(1),
            survivors: [site("\(type).swift", 46)], signature: signature, report: report)
    }

    /// Three leaked `OrientationViewModel`s, one ended `Sheet`, two living `Model`s (one made
    /// first), a note.
    static func snapshot(time: Duration = .seconds(5)) -> InspectorSnapshot {
        var counters = InspectorSnapshot.Counters()
        counters.owners = 6
        counters.subscriptions = 6
        counters.leaks = 3
        counters.zombies = 2
        return InspectorSnapshot(
            sequence: 1, time: time, counters: counters,
            owners: [
                owner("Model", 1), owner("OrientationViewModel", 1, .leaked), owner("Sheet", 1, .ended),
                owner("OrientationViewModel", 2, .leaked), owner("Model", 2, entries: 2),
                owner("OrientationViewModel", 3, .leaked),
            ],
            leaks: [
                leak("OrientationViewModel", 1), leak("OrientationViewModel", 2),
                leak("OrientationViewModel", 3),
            ],
            events: [
                InspectorSnapshot.Event(time: .seconds(4), kind: .note, message: "presented orientation")
            ])
    }

    /// A site of `Model#2` growing: `live` subscriptions at `Model.swift:33`, one more at each of
    /// the last three checkpoints.
    static func growth(live: Int = 3) -> InspectorGrowthReport {
        let owner = OwnerID(typeName: "Model", serial: 2)
        return InspectorGrowthReport(
            owner: owner, ownerSite: site("Model.swift", 10), kind: .subscription,
            site: site("Model.swift", 33),
            counts: [live - 2, live - 1, live], live: live,
            signature: "Model grows subscription App/Model.swift:33",
            trace:
                "\(owner) grows: \(live) subscriptions at Model.swift:33, +1 per repetition (tracked at Model.swift:10)\n"
                + "╰─ live at the last 3 checkpoints: \(live - 2) → \(live - 1) → \(live), and \(owner) is still alive\n"
                + "   fix: bind the subscription to the screen that makes it")
    }

    /// ``snapshot(time:)`` with ``growth(live:)``.
    static func growingSnapshot() -> InspectorSnapshot {
        var snapshot = snapshot()
        snapshot.growth = [growth()]
        return snapshot
    }
}
