import Foundation
import Synchronization
import TestSupport
import Testing
import Tether

/// Two threads reaching one subscriber or observer at once: a notification posted on two threads,
/// a lifecycle observed on one thread while another moves it. Each must be told one thing at a
/// time, in order.
extension Adversarial {
    @Suite struct SerialDeliveryTests {
        /// Combine calls a subscriber's `receive(_:)` one call at a time, and `sink(boundTo:)`
        /// counts its deliveries on that promise. A post made during another's delivery returns at
        /// once; the delivering thread hands it on after the first.
        @Test func notificationsPostedOnTwoThreadsReachTheSubscriberOneAtATime() async {
            let fixture = LedgerFixture()
            let center = NotificationCenter()
            let name = Notification.Name("SerialDeliveryTests.rotated")
            let owner = fixture.run { Viewer() }
            let inside = Atomic<Int>(0)
            let mostInside = Atomic<Int>(0)
            let entered = Flag()
            let secondPosted = Flag()
            center.tetherPublisher(for: name).sink(boundTo: owner.bag) { notification in
                let now = inside.add(1, ordering: .acquiringAndReleasing).newValue
                mostInside.max(now, ordering: .acquiringAndReleasing)
                if notification.userInfo?["first"] != nil {
                    entered.raise()
                    waitUntil("the second post") { secondPosted.isRaised }
                }
                inside.subtract(1, ordering: .acquiringAndReleasing)
            }
            await onThreads([
                { center.post(name: name, object: nil, userInfo: ["first": true]) },
                {
                    waitUntil("the first delivery") { entered.isRaised }
                    center.post(name: name, object: nil)
                    secondPosted.raise()
                },
            ])
            #expect(mostInside.load(ordering: .acquiring) == 1, "receive(_:) ran on two threads at once")
            #expect(fixture.ledger.snapshotRearmingOnChange().owners.first?.entries.first?.deliveries == 2)
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

        /// An observer added with `receiveCurrent` while another thread moves the lifecycle is
        /// told its first state before the move's step, and ends on the lifecycle's state.
        @Test func anObserverAddedDuringAMoveIsToldItsFirstStateFirst() async {
            let lifecycle = Lifecycle(ledger: LedgerFixture().ledger)
            lifecycle.move(to: .created)
            let told = Recorder<Lifecycle.State>()
            let isFirst = Atomic<Bool>(true)
            let entered = Flag()
            let moved = Flag()
            let token = Slot<AnyCancellable>()
            await onThreads([
                {
                    token.put(
                        lifecycle.observe(receiveCurrent: true) { state in
                            if isFirst.exchange(false, ordering: .acquiringAndReleasing) {
                                entered.raise()
                                waitUntil("the move") { moved.isRaised }
                            }
                            told.record(state)
                        })
                },
                {
                    waitUntil("the first delivery") { entered.isRaised }
                    lifecycle.move(to: .started)
                    moved.raise()
                },
            ])
            #expect(told.events == [.created, .started])
            #expect(told.events.last == lifecycle.state)
            token.take()?.cancel()
        }

        /// Observers come and go on one thread while another moves the lifecycle back and forth:
        /// each is told states one step apart, in order.
        @Test func observersAddedWhileItMovesAreToldEachStepInOrder() async {
            let lifecycle = Lifecycle(ledger: LedgerFixture().ledger)
            lifecycle.move(to: .created)
            let recorders = (0..<raceRounds * 250).map { _ in Recorder<Lifecycle.State>() }
            await onThreads([
                {
                    for index in 0..<raceRounds * 500 {
                        lifecycle.move(to: index.isMultiple(of: 2) ? .started : .created)
                    }
                },
                {
                    var tokens: [AnyCancellable] = []
                    for recorder in recorders {
                        tokens.append(lifecycle.observe { recorder.record($0) })
                        if tokens.count > 4 { tokens.removeFirst().cancel() }
                    }
                    tokens.removeAll()
                },
            ])
            let disordered = recorders.map(\.events).filter { states in
                zip(states, states.dropFirst()).contains { abs($0.rawValue - $1.rawValue) != 1 }
            }
            #expect(disordered.isEmpty, "told out of order, ending: \(disordered.map { $0.suffix(4) })")
        }
    }
}
