import Foundation
import Synchronization
import TestSupport
import Testing
import Tether

/// A delivery checks that its observer (or its lifecycle) is alive with a weak load, which holds
/// what it loads for a moment. When another thread lets go of the last other reference in that
/// moment, the delivery's release is the last one: the deinit runs on the publishing thread, in the
/// middle of the delivery, and removes the registration. The observer must not be called after
/// that on that thread.
extension Adversarial {
    @Suite struct ReleaseDuringDeliveryTests {
        /// How many registrations share the observer: more weak loads, more chances to be the last.
        static let registrations = 64

        /// An observer whose bag it holds but does not track: every delivery loads it weakly.
        @Test func anObserverReleasedByTheDeliveryIsNotCalledAfterItsDeinit() async {
            let ledger = Ledger(clock: ManualClock())
            var called = 0
            for _ in 0..<raceRounds {
                let data = LiveData(0)
                let probe = DeathProbe()
                let holder = Slot(BagHolder(probe: probe, ledger: ledger))
                for _ in 0..<Self.registrations {
                    data.add(observer: holder.value!, disposeBag: holder.value!.bag) { _ in
                        probe.called()
                    }
                }
                await probe.race(publishing: data, releaseAfter: 3 * Self.registrations) { holder.take() }
                called += probe.callsAfterDeathOnItsThread.load(ordering: .relaxed)
            }
            #expect(called == 0, "calls on the thread that ran the observer's deinit, after it")
        }

        /// A screen observed through its lifecycle: every delivery loads the lifecycle weakly, and
        /// the screen holds the only other reference.
        @Test func aLifecycleReleasedByTheDeliveryIsNotCalledAfterItsEnd() async {
            let ledger = Ledger(clock: ManualClock())
            var called = 0
            for _ in 0..<raceRounds {
                let data = LiveData(0)
                let probe = DeathProbe()
                let screen = Slot(Screen(ledger: ledger))
                screen.value!.lifecycle.move(to: .resumed)
                screen.value!.lifecycle.lifetime.onEnd { probe.died() }
                for _ in 0..<Self.registrations {
                    data.observe(boundTo: screen.value!) { _ in probe.called() }
                }
                await probe.race(publishing: data, releaseAfter: 3 * Self.registrations) { screen.take() }
                called += probe.callsAfterDeathOnItsThread.load(ordering: .relaxed)
            }
            #expect(called == 0, "calls on the thread that ended the lifecycle's lifetime, after it")
        }
    }
}

/// Where an observer died, and what was called on that thread afterwards.
private final class DeathProbe: Sendable {
    private let diedOn = Mutex<ObjectIdentifier?>(nil)
    private let calls = Atomic<Int>(0)
    let callsAfterDeathOnItsThread = Atomic<Int>(0)

    var hasDied: Bool { diedOn.withLock { $0 != nil } }

    func died() { diedOn.withLock { $0 = ObjectIdentifier(Thread.current) } }

    func called() {
        calls.add(1, ordering: .relaxed)
        if diedOn.withLock({ $0 }) == ObjectIdentifier(Thread.current) {
            callsAfterDeathOnItsThread.add(1, ordering: .relaxed)
        }
    }

    /// Publishes to `data` on one thread until the observer has died, while another lets go of it
    /// (`release`) once `calls` were made.
    func race(
        publishing data: LiveData<Int>, releaseAfter calls: Int, _ release: @escaping @Sendable () -> Void
    ) async {
        await onThreads([
            {
                // A thousand values between yields: where the release lands (in a delivery or between
                // two) is up to the scheduler, even on one core.
                var value = 1
                waitUntil("the observer to die", yieldingEvery: 1_000) {
                    data.publish(value: value)
                    value += 1
                    return self.hasDied
                }
            },
            {
                waitUntil("the observer to be called") { self.calls.load(ordering: .relaxed) >= calls }
                release()
            },
        ])
    }
}

/// Holds a bag it does not track: its deinit ends the bag, which removes its registrations.
private final class BagHolder: Sendable {
    let bag: DisposeBag
    let probe: DeathProbe

    init(probe: DeathProbe, ledger: Ledger) {
        self.probe = probe
        bag = DisposeBag(ledger: ledger)
    }

    deinit { probe.died() }
}
