import Foundation
import Testing

@testable import Tether

private final class Model {
    let bag = DisposeBag()
    init() { bag.track(self) }
}

private final class StoppingScreen: LifecycleOwner, Sendable {
    let lifecycle = Lifecycle()
    init() { lifecycle.lifetime.track(self) }
}

/// The delivery breaks of the fourth adversarial hunt, each kept by a test that fails on the code
/// before its fix.
extension Adversarial {
    @Suite struct DeliveryBreaksTests {
        /// A bound loop busy with one notification when its lifetime ends is handed nothing more:
        /// not the notifications buffered meanwhile, which would count as zombies of a correctly
        /// bound task.
        @Test func aBoundLoopGetsNoBufferedNotificationAfterItsLifetimeEnds() async {
            let fixture = LedgerFixture()
            let center = NotificationCenter()
            let name = Notification.Name("DeliveryBreaks.poke")
            let received = Recorder<Int>()
            let gate = Gate()
            let (arrived, arrival) = AsyncStream.makeStream(of: Void.self)
            let model = fixture.run { Model() }
            let notifications = center.tetherNotifications(named: name) { $0.userInfo?["n"] as? Int ?? -1 }
            let task = Task(boundTo: model.bag) {
                for await n in notifications {
                    received.record(n)
                    guard n == 1 else { continue }
                    arrival.yield()
                    // Busy with the first value; returns as soon as the task is cancelled.
                    await withTaskCancellationHandler {
                        await gate.wait()
                    } onCancel: {
                        gate.open()
                    }
                }
            }
            center.post(name: name, object: nil, userInfo: ["n": 1])
            for await _ in arrived { break }
            center.post(name: name, object: nil, userInfo: ["n": 2])
            center.post(name: name, object: nil, userInfo: ["n": 3])
            model.bag.dispose()
            await task.value
            #expect(received.events == [1])
            #expect(fixture.ledger.snapshotRearmingOnChange().counters.zombies == 0)
        }

        /// An observer of the lifecycle told of `created` before the registration's own publishes:
        /// the value waits until the screen starts again, as LiveData's contract says.
        @Test func aValuePublishedAsTheScreenStopsWaitsUntilItStartsAgain() {
            let fixture = LedgerFixture()
            let live = LiveData(0)
            let screen = fixture.run { StoppingScreen() }
            screen.lifecycle.move(to: .resumed)
            let statesSeen = Recorder<Lifecycle.State>()
            // Registered first: on stopping, the screen publishes (saves) something it also observes.
            let onStop = screen.lifecycle.observe(receiveCurrent: false) { state in
                if state == .created { live.publish(value: 1) }
            }
            let received = Recorder<Int>()
            live.observe(boundTo: screen) { value in
                statesSeen.record(screen.lifecycle.state)
                received.record(value)
            }
            screen.lifecycle.move(to: .created)
            #expect(received.events == [0])
            #expect(statesSeen.events.allSatisfy { $0 >= .started }, "delivered at \(statesSeen.events)")
            screen.lifecycle.move(to: .started)
            #expect(received.events == [0, 1], "the newest value arrives once it starts again")
            withExtendedLifetime(onStop) {}
        }

        /// A change handler told of a zombie delivery may remove the registration that made it:
        /// the registration is not called after the removal has returned.
        @Test func aLiveDataRegistrationRemovedByAChangeHandlerIsNotCalledAfterTheRemoval() {
            let fixture = LedgerFixture()
            let live = LiveData(0)
            let longLived = fixture.run { DisposeBag() }
            let panel = Viewer("panel", ledger: fixture.ledger)
            let removals = Recorder<Void>()
            // Each call records how many removals had returned by then.
            let calls = Recorder<Int>()
            fixture.run {
                let model = Model()
                live.add(observer: panel, disposeBag: longLived, attributedTo: model.bag) { _ in
                    calls.record(removals.events.count)
                }
                model.bag.dispose()  // from now on, its deliveries are zombies
            }
            _ = fixture.ledger.snapshotRearmingOnChange()
            let watch = fixture.ledger.onChange {
                longLived.dispose()
                removals.record(())
            }
            live.publish(value: 1)
            live.publish(value: 2)
            watch.cancel()
            #expect(removals.events.count == 1)
            #expect(calls.events == [0, 0])
            #expect(fixture.ledger.counters.zombies == 1)
        }

        /// The same for an `@Observed` observation: a change handler that removes it on hearing of
        /// its zombie delivery is not followed by a call.
        @Test func anObservationRemovedByAChangeHandlerIsNotCalledAfterTheRemoval() {
            let fixture = LedgerFixture()
            let volume = ObservedProperty(0)
            let removals = Recorder<Void>()
            let calls = Recorder<Int>()
            let observation = fixture.run {
                let model = Model()
                let observation = volume.observe(.did, attributedTo: model.bag) { _, _ in
                    calls.record(removals.events.count)
                }
                model.bag.dispose()
                return observation
            }
            _ = fixture.ledger.snapshotRearmingOnChange()
            let watch = fixture.ledger.onChange {
                _ = volume.remove(observation)
                removals.record(())
            }
            volume.value = 1
            volume.value = 2
            watch.cancel()
            #expect(removals.events.count == 1)
            #expect(calls.events == [0])
            #expect(fixture.ledger.counters.zombies == 1)
        }
    }
}
