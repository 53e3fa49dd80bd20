import Foundation
import TestSupport
import Testing
import Tether
import TetherTesting

private let tick = Notification.Name("DeliveryCountTests.tick")

/// An entry whose values Tether cannot see says so — its count is nil — rather than showing 0.
@Suite struct DeliveryCountTests {
    @Test func aSubscriptionHandedOverWithStoreInIsNotCountedAndABoundSinkIs() {
        let fixture = LedgerFixture()
        fixture.run {
            let owner = TrackedOwner()
            let subject = PassthroughSubject<Int, Never>()
            subject.sink { _ in }.store(boundTo: owner.bag)
            subject.sink(boundTo: owner.bag) { _ in }
            subject.send(1)
            subject.send(2)
            let entries = fixture.ledger.snapshotRearmingOnChange().owners.first?.entries
            #expect(entries?.map(\.deliveries) == [nil, 2])
            withExtendedLifetime(owner) {}
        }
    }

    @Test func aTaskIsNotCountedUntilItCountsAValue() async {
        let fixture = LedgerFixture()
        let (values, input) = AsyncStream.makeStream(of: Int.self)
        let owner = fixture.run { TrackedOwner() }
        let task = fixture.run {
            Task(boundTo: owner.bag) {
                for await _ in values { Task.countDelivery() }
            }
        }
        #expect(fixture.ledger.snapshotRearmingOnChange().owners.first?.entries.map(\.deliveries) == [nil])
        input.yield(1)
        await waitUntil("the value counted") {
            fixture.ledger.snapshotRearmingOnChange().owners.first?.entries.first?.deliveries == 1
        }
        input.finish()
        await task.value
    }

    @Test func aTaskCountsFromWhenItIteratesATetherSequence() async {
        let fixture = LedgerFixture()
        let center = NotificationCenter()
        let owner = fixture.run { TrackedOwner() }
        let notifications = center.tetherNotifications(named: tick)
        let task = fixture.run {
            Task(boundTo: owner.bag) {
                for await _ in notifications {}
            }
        }
        await waitUntil("the loop counting, with nothing received yet") {
            fixture.ledger.snapshotRearmingOnChange().owners.first?.entries.first?.deliveries == 0
        }
        owner.bag.dispose()
        await task.value
    }

    @Test func aReportSaysWhatItCouldNotCountAndWhichAPICounts() {
        let tracker = LeakTracker()
        let kept = tracker.run { () -> TrackedOwner in
            let owner = TrackedOwner()
            PassthroughSubject<Int, Never>().sink { _ in }.store(boundTo: owner.bag)
            return owner
        }
        #expect(
            tracker.report().description.contains(
                "subscription at DeliveryCountTests.swift:65, bound, deliveries not counted (sink(boundTo:) counts them)"
            ))
        kept.bag.dispose()
    }

    @Test func aSurvivorSaysWhatItDeliveredOrThatItWasNotCounted() {
        let site = CallSite(fileID: "App/Model.swift", line: 7)
        let counted = LeakReport.Survivor(
            kind: .task, site: site, deliveries: 3, deliveriesAfterEnd: 2, bound: true)
        let uncountedTask = LeakReport.Survivor(
            kind: .task, site: site, deliveries: nil, deliveriesAfterEnd: nil, bound: false)
        let uncountedSink = LeakReport.Survivor(
            kind: .subscription, site: site, deliveries: nil, deliveriesAfterEnd: nil, bound: false)
        #expect(counted.delivered == "3 values delivered, 2 after the end")
        #expect(uncountedTask.delivered == "deliveries not counted (forEach(boundTo:) counts them)")
        #expect(uncountedSink.delivered == "deliveries not counted (sink(boundTo:) counts them)")
    }
}
