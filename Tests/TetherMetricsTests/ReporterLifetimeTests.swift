import MetricsTestKit
import Synchronization
import Testing
import Tether
import TetherMetrics

/// Reporters side by side, and how reporting ends.
@Suite struct ReporterLifetimeTests {
    private final class Calls: Sendable {
        let count = Atomic<Int>(0)
        var value: Int { count.load(ordering: .relaxed) }
    }

    /// The owners gauge of `metrics`, once `reportings` have written what they read.
    private static func owners(in metrics: TestMetrics, after reportings: Reporting?...) -> Double {
        for reporting in reportings { reporting?.written() }
        return (try? metrics.expectMeter("tether_owners"))?.lastValue ?? 0
    }

    @Test func twoReportersOnOneLedgerEachFollowItAndEndAlone() {
        let fixture = MetricsFixture()
        let other = TestMetrics()
        let first = fixture.report()
        let second = fixture.report(to: other)
        let one = fixture.run { Plain() }
        fixture.passInterval()
        #expect(fixture.gauge("tether_owners") == 1)
        #expect(Self.owners(in: other, after: second) == 1)

        first.cancel()
        #expect(fixture.gauge("tether_owners") == 0)
        let two = fixture.run { Plain() }
        fixture.passInterval()
        #expect(fixture.gauge("tether_owners") == 0)
        #expect(Self.owners(in: other, after: second) == 2)
        withExtendedLifetime((one, two)) {}
        second.cancel()
        #expect(Self.owners(in: other) == 0)
    }

    @Test func ledgersReportedToOneBackendAddUp() {
        let clock = ManualClock()
        let metrics = TestMetrics()
        let screens = Ledger(clock: clock)
        let services = Ledger(clock: clock)
        let reportingScreens = Reporting(screens, to: metrics)
        let reportingServices = Reporting(services, to: metrics)
        let screen = Ledger.$current.withValue(screens) { Plain() }
        let service = Ledger.$current.withValue(services) { [Plain(), Plain()] }
        clock.advance(by: .seconds(1))
        #expect(Self.owners(in: metrics, after: reportingScreens, reportingServices) == 3)

        reportingScreens.cancel()
        #expect(Self.owners(in: metrics) == 2)
        reportingServices.cancel()
        #expect(Self.owners(in: metrics) == 0)
        withExtendedLifetime((screen, service)) {}
    }

    /// On a backend without meters of its own, swift-metrics keeps a total per `Meter`: the
    /// reporters to it share theirs, so the ledgers still add up, and one that ends takes out only
    /// its own.
    @Test func ledgersReportedToABackendWithoutMetersAddUp() {
        let clock = ManualClock()
        let backend = RecorderOnlyBackend()
        let screens = Ledger(clock: clock)
        let services = Ledger(clock: clock)
        let reportingServices = Reporting(services, to: backend)
        let service = Ledger.$current.withValue(services) { [Plain(), Plain()] }
        clock.advance(by: .seconds(1))
        reportingServices.written()
        #expect(backend.gauge("tether_owners") == 2)
        let reportingScreens = Reporting(screens, to: backend)
        let screen = Ledger.$current.withValue(screens) { Plain() }
        clock.advance(by: .seconds(1))
        reportingScreens.written()
        reportingServices.written()
        #expect(backend.gauge("tether_owners") == 3)

        reportingScreens.cancel()
        #expect(backend.gauge("tether_owners") == 2)
        reportingServices.cancel()
        #expect(backend.gauge("tether_owners") == 0)

        // Every reporter gone, the next one starts from a share of its own.
        let again = Reporting(screens, to: backend)
        clock.advance(by: .seconds(1))
        again.written()
        #expect(backend.gauge("tether_owners") == 1)
        again.cancel()
        withExtendedLifetime((screen, service)) {}
    }

    @Test func releasingTheLedgerEndsReporting() {
        let clock = ManualClock()
        let metrics = TestMetrics()
        var ledger: Ledger? = Ledger(clock: clock)
        weak let released = ledger
        let reporting = ledger.map { Reporting($0, to: metrics) }
        var owner = ledger.map { ledger in Ledger.$current.withValue(ledger) { Plain() } }
        clock.advance(by: .seconds(1))
        #expect(Self.owners(in: metrics, after: reporting) == 1)

        // Released with a change not read yet: the reporter does not keep the ledger, and takes
        // its numbers back out when the ledger goes.
        _ = Ledger.$current.withValue(ledger ?? .shared) { Plain() }
        owner = nil
        ledger = nil
        #expect(released == nil)
        #expect(Self.owners(in: metrics) == 0)
        let values = (try? metrics.expectMeter("tether_owners"))?.values
        clock.advance(by: .seconds(5))
        #expect((try? metrics.expectMeter("tether_owners"))?.values == values)
        _ = owner
        reporting?.cancel()
    }

    @Test func anotherChangeHandlerIsCalledAfterEachOfItsSnapshotsAndNotFlooded() {
        let fixture = MetricsFixture()
        let calls = Calls()
        let watching = fixture.ledger.onChange { calls.count.add(1, ordering: .relaxed) }
        let reporting = fixture.report()

        // Like a UI that renders a snapshot when told of a change: told once per snapshot,
        // however often the reporter reads.
        for round in 1...3 {
            _ = fixture.ledger.snapshotRearmingOnChange()
            let before = calls.value
            for _ in 0..<100 { _ = fixture.run { Plain() } }
            // One call for the change after the snapshot; at most one more after the reporter's
            // reading, which happens at most once per interval.
            #expect((1...2).contains(calls.value - before), "round \(round)")
            fixture.passInterval()
        }
        #expect(fixture.gaugeHistory("tether_owners").isEmpty)  // every owner was gone when read
        withExtendedLifetime(watching) {}
        reporting.cancel()
    }
}
