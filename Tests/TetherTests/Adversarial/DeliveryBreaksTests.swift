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
            let task = model.bag.task {
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
            #expect(fixture.ledger.snapshot().counters.zombies == 0)
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
            live.observe(screen) { value in
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
    }
}
