import Testing

@testable import Tether

final class Settings {
    @Observed var volume = 5
    @Observed var slider = 0
}

/// Records `kind new old` lines.
func line(_ name: String, _ new: Int, _ old: Int?) -> String {
    "\(name) \(new) \(old.map(String.init) ?? "nil")"
}

@Suite struct ObservedTests {
    @Test func didGetsNewAndOldWillGetsNewAndNilAllGetsBoth() {
        withLedger { _ in
            let settings = Settings()
            let seen = Recorder<String>()
            settings.$volume.observe(.did) { seen.record(line("did", $0, $1)) }
            settings.$volume.observe(.will) { seen.record(line("will", $0, $1)) }
            settings.$volume.observe(.all) { seen.record(line("all", $0, $1)) }
            settings.volume = 7
            #expect(seen.events == ["will 7 nil", "all 7 nil", "did 7 5", "all 7 5"])
            #expect(settings.volume == 7)
        }
    }

    @Test func willSeesTheOldValueStillStored() {
        withLedger { _ in
            let property = ObservedProperty(1)
            let seen = Recorder<Int>()
            property.observe(.will) { _, _ in seen.record(property.value) }
            property.value = 2
            #expect(seen.events == [1])
        }
    }

    @Test func firesEvenWhenUnchangedInTheOrderAdded() {
        withLedger { _ in
            let property = ObservedProperty(3)
            let seen = Recorder<String>()
            for name in ["a", "b", "c"] { property.observe(.did) { seen.record(line(name, $0, $1)) } }
            property.value = 3
            #expect(seen.events == ["a 3 3", "b 3 3", "c 3 3"])
        }
    }

    @Test func kindCanBeChangedAndDisabled() {
        withLedger { _ in
            let property = ObservedProperty(0)
            let seen = Recorder<String>()
            let observation = property.observe(.did) { seen.record(line("o", $0, $1)) }
            observation.kind = .disabled
            #expect(!observation.isEnabled)
            property.value = 1
            observation.kind = .will
            #expect(observation.isEnabled)
            property.value = 2
            #expect(seen.events == ["o 2 nil"])
        }
    }

    @Test func obsoleteIsOneWayAndFreezesTheKind() {
        withLedger { _ in
            let property = ObservedProperty(0)
            let seen = Recorder<Int>()
            let observation = property.observe(.did) { new, _ in seen.record(new) }
            observation.isObsolete = true
            #expect(observation.isObsolete)
            #expect(!observation.isEnabled)
            #expect(observation.kind == .disabled)
            observation.isObsolete = false
            observation.kind = .will
            #expect(observation.isObsolete)
            #expect(observation.kind == .disabled)
            property.value = 1
            #expect(seen.events == [])
        }
    }

    @Test func removeIsTrueOnceThenFalseAndEndsTheEntry() {
        withLedger { ledger in
            let property = ObservedProperty(0)
            let seen = Recorder<Int>()
            let observation = property.observe(.did) { new, _ in seen.record(new) }
            #expect(ledger.counters.observers == 1)
            #expect(property.remove(observation))
            #expect(!property.remove(observation))
            #expect(ledger.counters.observers == 0)
            property.value = 1
            #expect(seen.events == [])
        }
    }

    @Test func cleansePurgesObsoleteObservationsAndOtherCallsDoToo() {
        withLedger { ledger in
            let property = ObservedProperty(0)
            let first = property.observe(.did) { _, _ in }
            let second = property.observe(.did) { _, _ in }
            first.isObsolete = true
            #expect(ledger.counters.observers == 2)
            property.cleanse()
            #expect(ledger.counters.observers == 1)
            #expect(!property.remove(first))
            second.isObsolete = true
            property.observe(.did) { _, _ in }  // purges too
            #expect(ledger.counters.observers == 1)
        }
    }

    /// The seed's promise: any call to observe, remove, bind or unbind purges — a bind or an
    /// unbind that fails too.
    @Test func aBindOrUnbindThatFailsStillPurges() {
        withLedger { ledger in
            let x = ObservedProperty(0)
            let y = ObservedProperty(0)
            let z = ObservedProperty(0)
            #expect(x.bind(y))
            let first = x.observe(.did) { _, _ in }
            first.isObsolete = true
            #expect(!x.bind(z), "x is bound already")
            #expect(!x.remove(first), "purged by the bind that failed")
            let second = x.observe(.did) { _, _ in }
            second.isObsolete = true
            #expect(!x.unbind(x))
            #expect(!x.remove(second), "purged by the unbind that failed")
            #expect(ledger.counters.observers == 0 && ledger.counters.bindings == 1)
        }
    }

    @Test func countsDeliveriesPerCall() {
        withLedger { ledger in
            let property = ObservedProperty(0)
            property.observe(.all) { _, _ in }
            property.value = 1
            property.value = 2
            #expect(ledger.snapshotRearmingOnChange().unowned.map(\.deliveries) == [4])
        }
    }

    /// A `.did` handler that clamps its property writes again within the write: the clamped
    /// value crosses the binding, the write it replaced does not, and only what crossed counts
    /// as the binding's delivery.
    @Test func aBindingCountsOnlyTheWritesThatCrossed() {
        withLedger { ledger in
            let x = ObservedProperty(0)
            let y = ObservedProperty(0)
            #expect(x.bind(y))
            x.observe(.did) { new, _ in if new > 3 { x.value = 3 } }
            x.value = 5
            #expect((x.value, y.value) == (3, 3))
            let binding = ledger.snapshotRearmingOnChange().unowned.first { $0.kind == .binding }
            #expect(binding?.deliveries == 1)
        }
    }

    @Test func bindingWritesBothWaysOnceWithoutEcho() {
        withLedger { ledger in
            let settings = Settings()
            let seen = Recorder<String>()
            settings.$volume.observe(.all) { seen.record(line("volume", $0, $1)) }
            settings.$slider.observe(.all) { seen.record(line("slider", $0, $1)) }
            #expect(settings.$volume.bind(settings.$slider))
            #expect(ledger.counters.bindings == 1)
            settings.volume = 8
            #expect(settings.slider == 8)
            settings.slider = 9
            #expect(settings.volume == 9)
            #expect(
                seen.events == [
                    "volume 8 nil", "volume 8 5", "slider 8 nil", "slider 8 0",
                    "slider 9 nil", "slider 9 8", "volume 9 nil", "volume 9 8",
                ])
        }
    }

    @Test func onlyOneBindingPerProperty() {
        withLedger { ledger in
            let x = ObservedProperty(0)
            let y = ObservedProperty(0)
            let z = ObservedProperty(0)
            #expect(x.bind(y))
            #expect(!x.bind(y))
            #expect(!y.bind(x))
            #expect(!z.bind(y))
            #expect(!x.bind(x))
            #expect(ledger.counters.bindings == 1)
        }
    }

    @Test func unbindWorksInEitherOrderOnce() {
        withLedger { ledger in
            let x = ObservedProperty(0)
            let y = ObservedProperty(0)
            let z = ObservedProperty(0)
            #expect(!x.unbind(y))
            #expect(x.bind(y))
            #expect(!x.unbind(z))
            #expect(y.unbind(x))
            #expect(!x.unbind(y))
            #expect(ledger.counters.bindings == 0)
            x.value = 4
            #expect(y.value == 0)
            #expect(x.bind(z))
        }
    }

    @Test func bindingKeepsNeitherSideAliveAndIsSeveredAtDeinit() {
        withLedger { ledger in
            let x = ObservedProperty(0)
            weak var gone: ObservedProperty<Int>?
            do {
                let y = ObservedProperty(0)
                gone = y
                #expect(x.bind(y))
            }
            #expect(gone == nil)
            #expect(ledger.counters.bindings == 0)
            x.value = 1
            #expect(x.bind(ObservedProperty(2)))
        }
    }

    @Test func deinitEndsObservationEntries() {
        withLedger { ledger in
            do {
                let property = ObservedProperty(0)
                property.observe(.did) { _, _ in }
                #expect(ledger.counters.observers == 1)
            }
            #expect(ledger.counters.observers == 0)
        }
    }

    @Test func observationInALifetimeEndsWithItAndBelongsToItsOwner() {
        withLedger { ledger in
            let property = ObservedProperty(0)
            let seen = Recorder<Int>()
            do {
                let viewer = Viewer()
                property.observe(.did, boundTo: viewer.bag) { new, _ in seen.record(new) }
                property.value = 1
                let owner = ledger.snapshotRearmingOnChange().owners.first
                #expect(owner?.id.description == "Viewer#1")
                #expect(owner?.entries.map(\.kind) == [.observer])
            }
            property.value = 2
            #expect(seen.events == [1])
            #expect(ledger.counters.observers == 0)
            #expect(
                ledger.snapshotRearmingOnChange().events.filter { $0.entryKind == .observer }.map(\.kind) == [
                    .created, .cancelled,
                ])
        }
    }

    @Test func removingAnObservationTakesItOutOfItsLifetime() {
        withLedger { ledger in
            let property = ObservedProperty(0)
            let lifetime = Lifetime()
            let observation = property.observe(.did, boundTo: lifetime) { _, _ in }
            #expect(property.remove(observation))
            #expect(ledger.counters.observers == 0)
            lifetime.end()
            #expect(
                ledger.snapshotRearmingOnChange().events.filter { $0.entryKind == .observer }.map(\.kind) == [
                    .created, .ended,
                ])
        }
    }

    @Test func observingInAnEndedLifetimeRegistersNothing() {
        withLedger { ledger in
            let property = ObservedProperty(0)
            let lifetime = Lifetime()
            lifetime.end()
            let seen = Recorder<Int>()
            let observation = property.observe(.did, boundTo: lifetime) { new, _ in seen.record(new) }
            property.value = 1
            #expect(seen.events == [])
            #expect(!property.remove(observation))
            #expect(ledger.counters.observers == 0)
        }
    }

    /// A write that lands while an observation is listed but not yet bound (here from a change
    /// handler the ledger calls as `observe` purges an obsolete observation) does not call it when
    /// its lifetime turns out to have ended.
    @Test func aWriteWhileObservingInAnEndedLifetimeCallsNothing() {
        withLedger { ledger in
            let property = ObservedProperty(0)
            let stale = property.observe(.did) { _, _ in }
            stale.isObsolete = true
            let lifetime = Lifetime()
            lifetime.end()
            let writes = Recorder<Int>()
            let onChange = ledger.onChange {
                writes.record(property.value)
                property.value += 1
                _ = ledger.countersRearmingOnChange()  // re-arms this handler for the next change
            }
            let seen = Recorder<Int>()
            property.observe(.did, boundTo: lifetime) { new, _ in seen.record(new) }
            onChange.cancel()
            #expect(writes.events.count >= 2, "a write landed while the observation was listed")
            #expect(seen.events == [])
            #expect(ledger.counters.observers == 0)
        }
    }

    @Test func concurrentWritesObservationsAndBindingsStayConsistent() async {
        let ledger = Ledger(clock: ManualClock())
        await Ledger.$current.withValue(ledger) {
            let x = ObservedProperty(0)
            let calls = Recorder<Int>()
            x.observe(.did) { new, _ in calls.record(new) }
            let rounds = 3_000
            await withTaskGroup(of: Void.self) { group in
                group.addTask { for value in 1...rounds { x.value = value } }
                group.addTask {
                    for _ in 0..<rounds {
                        let observation = x.observe(.all) { _, _ in }
                        observation.isObsolete = true
                        x.cleanse()
                    }
                }
                group.addTask {
                    for _ in 0..<rounds {
                        let y = ObservedProperty(0)
                        if x.bind(y) { y.value = -1 }
                    }
                }
            }
            #expect(calls.events.count >= rounds)
            #expect(ledger.counters.observers == 1)
            #expect(ledger.counters.bindings == 0)
        }
    }
}
