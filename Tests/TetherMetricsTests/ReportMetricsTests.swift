import MetricsTestKit
import Synchronization
import TestSupport
import Testing
import Tether

@testable import TetherMetrics

/// Each metric following a scripted ledger, through swift-metrics' test backend.
@Suite struct ReportMetricsTests {
    @Test func ownersAndBindingsByKindRiseAndReturnToZeroWhenTheOwnerGoes() async {
        let fixture = MetricsFixture()
        let reporting = fixture.report()
        let events = PassthroughSubject<Int, Never>()
        let orientation = LiveData<Int>()
        let volume = ObservedProperty(0)
        let slider = ObservedProperty(0)
        var screen: Screen? = fixture.run {
            Screen(events: events, orientation: orientation, clock: fixture.clock)
        }
        fixture.run { _ = volume.bind(slider) }
        fixture.passInterval()
        #expect(fixture.shown == Shown(owners: 1, subscriptions: 1, tasks: 1, observers: 1, bindings: 1))

        screen = nil
        volume.unbind(slider)
        await waitUntil { fixture.ledger.counters.tasks == 0 }  // the task returns when cancelled
        fixture.passInterval()
        #expect(fixture.shown == Shown())
        #expect(fixture.gaugeHistory("tether_owners") == [1, 0])
        for kind in ["subscription", "task", "observer", "binding"] {
            #expect(fixture.gaugeHistory("tether_bindings", kind: kind) == [1, 0])
        }
        _ = screen
        reporting.cancel()
    }

    @Test func anOwnerOnItsWayOutIsEndingThenLeakedWithOneVerdictCounted() {
        let fixture = MetricsFixture(gracePeriod: .seconds(10))
        let reporting = fixture.report()
        let events = PassthroughSubject<Int, Never>()
        var kept: Forgetful? = fixture.run { Forgetful(events: events) }
        kept?.bag.end()
        fixture.passInterval()
        #expect(fixture.shown == Shown(owners: 1, ending: 1, subscriptions: 1))

        fixture.passGracePeriod()
        #expect(fixture.ledger.counters.leaks == 1)
        #expect(fixture.shown == Shown(owners: 1, subscriptions: 1, leaked: 1, verdicts: 1))

        // Released late: the leak is gone from the gauge, and the verdict stays counted.
        kept = nil
        fixture.passInterval()
        #expect(fixture.ledger.counters.leaks == 0)
        #expect(fixture.shown == Shown(verdicts: 1))
        #expect(fixture.gaugeHistory("tether_leaked_owners") == [1, 0])
        #expect(fixture.gaugeHistory("tether_owners_ending") == [1, 0])
        _ = kept
        reporting.cancel()
    }

    @Test func eachLeakVerdictIsCountedOnce() {
        let fixture = MetricsFixture(gracePeriod: .seconds(10))
        let reporting = fixture.report()
        let events = PassthroughSubject<Int, Never>()
        let first = fixture.run { Forgetful(events: events) }
        first.bag.end()
        fixture.passGracePeriod()
        let second = fixture.run { Forgetful(events: events) }
        second.bag.end()
        fixture.passGracePeriod()
        fixture.passGracePeriod()
        #expect(fixture.shown.verdicts == 2)
        #expect(fixture.shown.leaked == 2)
        withExtendedLifetime((first, second)) {}
        reporting.cancel()
    }

    @Test func aSiteGrowingAtEachCheckpointIsCountedUntilItStops() {
        let fixture = MetricsFixture()
        let reporting = fixture.report()
        let events = PassthroughSubject<Int, Never>()
        let session = fixture.run { Session() }
        for visit in 1...3 {
            fixture.run { session.collect(events) }
            fixture.ledger.checkpoint()
            fixture.passInterval()
            #expect(fixture.shown.growing == (visit < 3 ? 0 : 1), "after visit \(visit)")
        }
        fixture.ledger.checkpoint()  // no visit: the count did not rise
        fixture.passInterval()
        #expect(fixture.shown.growing == 0)
        #expect(fixture.gaugeHistory("tether_growing_sites") == [1, 0])
        withExtendedLifetime(session) {}
        reporting.cancel()
    }

    /// Another thread changes the ledger after the reporter's change handler registered and
    /// before its first reading: that change is read first, and still counts only the zombies
    /// since the reporter was made.
    @Test func aChangeReadBeforeTheFirstReadingCountsFromTheStart() throws {
        let fixture = MetricsFixture()
        let events = PassthroughSubject<Int, Never>()
        let kept = fixture.run { Forgetful(events: events) }
        kept.bag.end()
        events.send(0)
        events.send(1)  // two zombies before any reporting
        let reporter = MetricsReporter(ledger: fixture.ledger, factory: fixture.metrics)
        events.send(2)
        reporter.ledgerChanged()  // what the handler does, on the changing thread
        reporter.start()
        reporter.waitUntilWritten()
        #expect(try fixture.metrics.expectCounter("tether_zombie_deliveries_total").totalValue == 1)
        reporter.end()
        withExtendedLifetime(kept) {}
    }

    @Test func zombieDeliveriesAreCountedOneByOne() throws {
        let fixture = MetricsFixture()
        let reporting = fixture.report()
        let events = PassthroughSubject<Int, Never>()
        let kept = fixture.run { Forgetful(events: events) }
        events.send(0)  // delivered while the owner lives: not a zombie
        kept.bag.end()
        fixture.passInterval()
        #expect(fixture.shown.zombies == 0)

        events.send(1)
        fixture.passInterval()
        #expect(fixture.shown.zombies == 1)
        events.send(2)
        fixture.passInterval()
        #expect(fixture.shown.zombies == 2)  // written, so the counter is read whole
        #expect(try fixture.metrics.expectCounter("tether_zombie_deliveries_total").values == [1, 1])
        withExtendedLifetime(kept) {}
        reporting.cancel()
    }

    @Test func theCountersCountFromWhenReportingStarts() {
        let fixture = MetricsFixture(gracePeriod: .seconds(10))
        let events = PassthroughSubject<Int, Never>()
        let kept = fixture.run { Forgetful(events: events) }
        kept.bag.end()
        events.send(1)
        fixture.passGracePeriod()
        #expect(fixture.ledger.counters.zombies == 1)

        let reporting = fixture.report()
        #expect(fixture.shown == Shown(owners: 1, subscriptions: 1, leaked: 1))
        events.send(2)
        fixture.passInterval()
        #expect(fixture.shown.zombies == 1)
        withExtendedLifetime(kept) {}
        reporting.cancel()
    }

    @Test func everyMetricIsNamedTetherAndEveryDimensionIsBounded() async {
        let fixture = MetricsFixture(gracePeriod: .seconds(10))
        let reporting = fixture.report()
        let events = PassthroughSubject<Int, Never>()
        let orientation = LiveData<Int>()
        let volume = ObservedProperty(0)
        let slider = ObservedProperty(0)
        let screen = fixture.run { Screen(events: events, orientation: orientation, clock: fixture.clock) }
        fixture.run { _ = volume.bind(slider) }
        let kept = fixture.run { Forgetful(events: events) }
        kept.bag.end()
        events.send(1)
        fixture.passGracePeriod()
        fixture.written()

        let names =
            fixture.metrics.meters.map(\.label) + fixture.metrics.counters.map(\.label)
            + fixture.metrics.recorders.map(\.label) + fixture.metrics.timers.map(\.label)
        #expect(
            Set(names) == [
                "tether_owners", "tether_owners_ending", "tether_bindings", "tether_leaked_owners",
                "tether_growing_sites", "tether_leak_verdicts_total", "tether_zombie_deliveries_total",
            ])
        #expect(names.allSatisfy { $0.hasPrefix("tether_") })
        let dimensions =
            fixture.metrics.meters.flatMap(\.dimensions) + fixture.metrics.counters.flatMap(\.dimensions)
        #expect(dimensions.allSatisfy { $0.0 == "kind" })
        #expect(Set(dimensions.map(\.1)) == ["subscription", "task", "observer", "binding"])
        #expect(fixture.metrics.meters(label: "tether_bindings").count == 4)
        // Growth is not reported by the ledger yet: the gauge exists and reads 0.
        #expect(fixture.metrics.meters(label: "tether_growing_sites").count == 1)
        #expect(fixture.shown.growing == 0)
        withExtendedLifetime((screen, kept)) {}
        reporting.cancel()
    }

    @Test func cancelStopsUpdatesAndTakesTheGaugesBack() {
        let fixture = MetricsFixture(gracePeriod: .seconds(10))
        let reporting = fixture.report()
        let events = PassthroughSubject<Int, Never>()
        let kept = fixture.run { Forgetful(events: events) }
        kept.bag.end()
        events.send(1)
        fixture.passGracePeriod()
        #expect(fixture.shown == Shown(owners: 1, subscriptions: 1, leaked: 1, verdicts: 1, zombies: 1))

        events.send(2)  // a change not read yet when the reporting ends
        reporting.cancel()
        #expect(fixture.shown == Shown(verdicts: 1, zombies: 1))
        let written = fixture.everyValueWritten

        let another = fixture.run { Forgetful(events: events) }
        another.bag.end()
        events.send(3)
        fixture.passGracePeriod()
        fixture.passGracePeriod()
        #expect(fixture.ledger.counters.leaks == 2)
        #expect(fixture.everyValueWritten == written)
        withExtendedLifetime((kept, another)) {}
    }

    @Test func aCancelFromAnotherThreadLetsNothingThroughAfterItReturns() async {
        let fixture = MetricsFixture()
        let reporting = fixture.report()
        let worker = Worker()
        await withTaskGroup { group in
            // Binds and ends, moving the clock a reading interval after each: every change is
            // read, on this thread (the change after a quiet spell) or by the clock's timer.
            group.addTask {
                let events = PassthroughSubject<Int, Never>()
                while !worker.stop.load(ordering: .relaxed) {
                    do {
                        let owner = fixture.run { Forgetful(events: events) }
                        fixture.passInterval()
                        withExtendedLifetime(owner) {}
                    }
                    fixture.passInterval()
                    worker.rounds.add(1, ordering: .relaxed)
                }
            }
            await waitUntil { fixture.gaugeHistory("tether_owners").count >= 20 }
            reporting.cancel()
            let written = fixture.everyValueWritten
            let roundsAtCancel = worker.rounds.load(ordering: .relaxed)
            await waitUntil { worker.rounds.load(ordering: .relaxed) >= roundsAtCancel + 20 }
            #expect(fixture.everyValueWritten == written)
            worker.stop.store(true, ordering: .relaxed)
        }
    }
}

/// How far a background loop got, and the flag that stops it.
private final class Worker: Sendable {
    let rounds = Atomic<Int>(0)
    let stop = Atomic<Bool>(false)
}
