import Foundation
import Synchronization
import Testing
import Tether

private let rotated = Notification.Name("NotificationSequenceTests.rotated")

/// Counts how often a transform ran: a registered observer's only trace.
private final class Calls: Sendable {
    private let count = Atomic(0)
    func hit() { count.wrappingAdd(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

@Suite struct NotificationSequenceTests {
    @Test func deliversProjectionsInPostingOrder() async {
        await withOwnLedger {
            let center = NotificationCenter()
            let notifications = center.tetherNotifications(named: rotated) { $0.userInfo?["n"] as? Int ?? -1 }
            for n in 1...3 { center.post(name: rotated, object: nil, userInfo: ["n": n]) }
            var received: [Int] = []
            for await n in notifications {
                received.append(n)
                if received.count == 3 { break }
            }
            #expect(received == [1, 2, 3])
        }
    }

    @Test func deliversOnlyWhatTheSenderPosts() async {
        await withOwnLedger {
            let center = NotificationCenter()
            let sender = NSObject()
            let id = ObjectIdentifier(sender)
            let notifications = center.tetherNotifications(named: rotated, object: sender) { note in
                note.object.map { ObjectIdentifier($0 as AnyObject) } == id
            }
            center.post(name: rotated, object: NSObject())
            center.post(name: rotated, object: nil)
            center.post(name: rotated, object: sender)
            var iterator = notifications.makeAsyncIterator()
            #expect(await iterator.next() == true)
        }
    }

    @Test func removesTheObserverWhenTheLoopEnds() async {
        await withOwnLedger {
            let center = NotificationCenter()
            let calls = Calls()
            weak var probe: StreamsProbe?
            let task: Task<Void, Never>
            do {
                let captured = StreamsProbe()
                probe = captured
                let notifications = center.tetherNotifications(named: rotated) { _ in
                    withExtendedLifetime(captured) { calls.hit() }
                }
                task = Task { for await _ in notifications { break } }
            }
            center.post(name: rotated, object: nil)
            await task.value
            center.post(name: rotated, object: nil)
            #expect(calls.value == 1, "nothing observes after the loop ended")
            #expect(probe == nil, "the observer block is released")
        }
    }

    @Test func removesTheObserverWhenTheIteratingTaskIsCancelled() async {
        await withOwnLedger {
            let center = NotificationCenter()
            let calls = Calls()
            weak var probe: StreamsProbe?
            let task: Task<Int, Never>
            do {
                let captured = StreamsProbe()
                probe = captured
                let notifications = center.tetherNotifications(named: rotated) { _ in
                    withExtendedLifetime(captured) { calls.hit() }
                }
                task = Task {
                    var count = 0
                    for await _ in notifications { count += 1 }
                    return count
                }
            }
            task.cancel()
            _ = await task.value
            center.post(name: rotated, object: nil)
            #expect(calls.value == 0)
            #expect(probe == nil)
        }
    }

    @Test func removesTheObserverWhenTheSequenceIsReleasedUnused() {
        withOwnLedger {
            let center = NotificationCenter()
            let calls = Calls()
            do {
                let notifications = center.tetherNotifications(named: rotated) { _ in calls.hit() }
                center.post(name: rotated, object: nil)
                withExtendedLifetime(notifications) {}
            }
            center.post(name: rotated, object: nil)
            #expect(calls.value == 1)
        }
    }

    @Test func deliversTheNameByDefault() async {
        await withOwnLedger {
            let center = NotificationCenter()
            let notifications = center.tetherNotifications(named: rotated)
            center.post(name: rotated, object: nil)
            var iterator = notifications.makeAsyncIterator()
            #expect(await iterator.next() == rotated)
        }
    }
}

@Suite struct NotificationPublisherTests {
    @Test func deliversSynchronouslyOnThePostingThread() {
        withOwnLedger {
            let center = NotificationCenter()
            let received = Mutex<[Int]>([])
            let cancellable = center.tetherPublisher(for: rotated).sink { note in
                received.withLock { $0.append(note.userInfo?["n"] as? Int ?? -1) }
            }
            center.post(name: rotated, object: nil, userInfo: ["n": 1])
            center.post(name: rotated, object: nil, userInfo: ["n": 2])
            #expect(received.withLock { $0 } == [1, 2])
            cancellable.cancel()
            center.post(name: rotated, object: nil, userInfo: ["n": 3])
            #expect(received.withLock { $0 } == [1, 2])
        }
    }

    @Test func removesTheObserverWhenTheOwnerDeinitializes() {
        let ledger = Ledger(clock: ManualClock())
        Ledger.$current.withValue(ledger) {
            let center = NotificationCenter()
            weak var probe: StreamsProbe?
            let received = Mutex(0)
            do {
                let owner = StreamsOwner()
                let captured = StreamsProbe()
                probe = captured
                center.tetherPublisher(for: rotated).sink(boundTo: owner.bag) { _ in
                    withExtendedLifetime(captured) { received.withLock { $0 += 1 } }
                }
                center.post(name: rotated, object: nil)
            }
            center.post(name: rotated, object: nil)
            #expect(received.withLock { $0 } == 1)
            #expect(probe == nil)
            #expect(ledger.counters.subscriptions == 0)
        }
    }

    @Test func dropsNotificationsPostedWithoutDemand() {
        withOwnLedger {
            let center = NotificationCenter()
            let recorder = StreamsRecorder<Int>()
            center.tetherPublisher(for: rotated).map { $0.userInfo?["n"] as? Int ?? -1 }.prefix(1).subscribe(
                recorder)
            center.post(name: rotated, object: nil, userInfo: ["n": 1])
            center.post(name: rotated, object: nil, userInfo: ["n": 2])
            #expect(recorder.events == [.subscribed, .value(1), .finished])
        }
    }
}
