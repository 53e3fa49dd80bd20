import Foundation
import Synchronization
import Testing
import Tether

/// Two threads reaching one subscriber at once: a notification posted on two threads. It must be
/// told one thing at a time.
extension Adversarial {
    @Suite struct SerialDeliveryTests {
        /// Combine calls a subscriber's `receive(_:)` one call at a time, and `sink(boundTo:)`
        /// counts its deliveries on that promise. The second post waits for the first delivery.
        @Test func notificationsPostedOnTwoThreadsReachTheSubscriberOneAtATime() async {
            let fixture = LedgerFixture()
            let center = NotificationCenter()
            let name = Notification.Name("SerialDeliveryTests.rotated")
            let owner = fixture.run { Viewer() }
            let inside = Atomic<Int>(0)
            let mostInside = Atomic<Int>(0)
            let entered = Flag()
            let secondPosting = Flag()
            center.tetherPublisher(for: name).sink(boundTo: owner.bag) { notification in
                let now = inside.add(1, ordering: .acquiringAndReleasing).newValue
                mostInside.max(now, ordering: .acquiringAndReleasing)
                if notification.userInfo?["first"] != nil {
                    entered.raise()
                    spin { secondPosting.isRaised }
                    // Long enough for an unserialized second post to come in beside this one.
                    for _ in 0..<10_000 where mostInside.load(ordering: .acquiring) == 1 { sched_yield() }
                }
                inside.subtract(1, ordering: .acquiringAndReleasing)
            }
            await onThreads([
                { center.post(name: name, object: nil, userInfo: ["first": true]) },
                {
                    spin { entered.isRaised }
                    secondPosting.raise()
                    center.post(name: name, object: nil)
                },
            ])
            #expect(mostInside.load(ordering: .acquiring) == 1, "receive(_:) ran on two threads at once")
            #expect(fixture.ledger.snapshot().owners.first?.entries.first?.deliveries == 2)
        }

        /// A subscriber may post the same notification again from inside `receive(_:)`.
        @Test func aSubscriberMayPostAgainWhileReceiving() {
            let fixture = LedgerFixture()
            let center = NotificationCenter()
            let name = Notification.Name("SerialDeliveryTests.again")
            let owner = fixture.run { Viewer() }
            let got = Recorder<Int>()
            center.tetherPublisher(for: name).sink(boundTo: owner.bag) { notification in
                let depth = notification.userInfo?["depth"] as? Int ?? 0
                got.record(depth)
                if depth < 2 { center.post(name: name, object: nil, userInfo: ["depth": depth + 1]) }
            }
            center.post(name: name, object: nil)
            #expect(got.events == [0, 1, 2])
        }
    }
}
