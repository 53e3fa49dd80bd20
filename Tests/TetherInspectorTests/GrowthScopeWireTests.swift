import Foundation
import Testing
import Tether
import TetherInspector

/// A growth report's scope on the wire, both ways across versions: a report from a server that
/// predates scopes grew in the default scope, and a reader that predates scopes reads a report
/// with one as before (it skips keys it does not know).
@Suite struct GrowthScopeWireTests {
    private static let scoped = InspectorGrowthReport(
        owner: OwnerID(typeName: "Session", serial: 1),
        ownerSite: .init(fileID: "App/Session.swift", line: 8),
        kind: .subscription, site: .init(fileID: "App/Sheet.swift", line: 31), counts: [2, 3, 4], live: 4,
        scope: "accumulation", signature: "Session grows subscription App/Sheet.swift:31",
        trace: "Session#1 grows: 4 subscriptions at Sheet.swift:31, +1 per repetition")

    private static func object(_ report: InspectorGrowthReport) throws -> NSMutableDictionary {
        let data = try JSONEncoder().encode(report)
        return try #require(try JSONSerialization.jsonObject(with: data) as? NSDictionary).mutableCopy()
            as! NSMutableDictionary
    }

    @Test func theScopeSurvivesARoundTrip() throws {
        let data = try JSONEncoder().encode(Self.scoped)
        #expect(try JSONDecoder().decode(InspectorGrowthReport.self, from: data) == Self.scoped)
        #expect(try Self.object(Self.scoped)["scope"] as? String == "accumulation")
    }

    @Test func aReportFromAServerThatPredatesScopesGrewInTheDefaultScope() throws {
        let old = try Self.object(Self.scoped)
        old.removeObject(forKey: "scope")
        let decoded = try JSONDecoder().decode(
            InspectorGrowthReport.self, from: try JSONSerialization.data(withJSONObject: old))
        #expect(decoded.scope == GrowthReport.defaultScope)
        var expected = Self.scoped
        expected.scope = GrowthReport.defaultScope
        #expect(decoded == expected)
    }

    /// What a reader from before scopes decodes: the same keys, its own decoder's, which reads
    /// the fields it knows and ignores the rest.
    @Test func aReaderThatPredatesScopesReadsAScopedReport() throws {
        struct OlderReport: Decodable, Equatable {
            var owner: String
            var ownerSite: String
            var kind: String
            var site: String
            var counts: [Int]
            var live: Int
            var signature: String
            var trace: String
        }
        let data = try JSONEncoder().encode(Self.scoped)
        let older = try JSONDecoder().decode(OlderReport.self, from: data)
        #expect(older.counts == [2, 3, 4] && older.live == 4 && older.owner == "Session#1")
        #expect(
            Set(try Self.object(Self.scoped).allKeys.compactMap { $0 as? String }).subtracting(["scope"])
                == ["owner", "ownerSite", "kind", "site", "counts", "live", "signature", "trace"])
    }

    @Test func aLedgersScopeReachesTheWire() throws {
        let ledger = Ledger(clock: ManualClock())
        let subject = PassthroughSubject<Int, Never>()
        let session = Ledger.$current.withValue(ledger) { TestOwner(subject) }
        for _ in 0..<3 {
            subject.sink { _ in }.store(boundTo: session.bag)
            ledger.checkpoint(scope: "settings")
        }
        let snapshot = InspectorSnapshot(ledger.snapshotRearmingOnChange())
        #expect(snapshot.growth.map(\.scope) == ["settings"])
        let line = InspectorMessage.snapshot(snapshot).encodedLine()
        #expect(try InspectorMessage.decode(line: line) == .snapshot(snapshot))
        withExtendedLifetime(session) {}
    }
}
