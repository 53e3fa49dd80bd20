import Observation
import Testing
import Tether

/// A model on Swift's own Observation, in a file that imports Tether: `@Observable` expands to
/// `Observation.ObservationRegistrar`, which a Tether type named `Observation` would shadow.
@MainActor @Observable
final class Thermostat {
    var target = 20
}

@MainActor @Suite struct ObservationCoexistenceTests {
    @Test func observableMacroWorksBesideTether() {
        let thermostat = Thermostat()
        let changes = Recorder<Int>()
        withObservationTracking {
            _ = thermostat.target
        } onChange: {
            changes.record(1)
        }
        thermostat.target = 22
        #expect(changes.events == [1])
        #expect(thermostat.target == 22)
    }

    @Test func anObservedHandlerCanFeedAnObservableModel() {
        final class Dial {
            @Observed var position = 0
        }
        let dial = Dial()
        let thermostat = Thermostat()
        let lifetime = Lifetime(ledger: Ledger(clock: ManualClock()))
        let changes = Recorder<Int>()
        withObservationTracking {
            _ = thermostat.target
        } onChange: {
            changes.record(1)
        }
        let observation: PropertyObservation = dial.$position.observe(.did, boundTo: lifetime) { new, _ in
            MainActor.assumeIsolated { thermostat.target = new }
        }
        dial.position = 25
        #expect(thermostat.target == 25)
        #expect(changes.events == [1])
        lifetime.end()
        dial.position = 30
        #expect(thermostat.target == 25)
        #expect(observation.isEnabled)
    }
}
