import Testing

@testable import Tether

/// A screen: a lifecycle owner whose lifecycle lifetime is tracked in the ledger.
final class Screen: LifecycleOwner, Sendable {
    let lifecycle: Lifecycle

    init(ledger: Ledger = .current) {
        lifecycle = Lifecycle(ledger: ledger)
        lifecycle.lifetime.track(self)
    }
}

@Suite struct LifecycleLiveDataTests {
    @Test func receivesValuesOnlyWhileAtLeastStarted() {
        withLedger { _ in
            let live = LiveData(1)
            let screen = Screen()
            let seen = Recorder<Int>()
            live.observe(boundTo: screen) { seen.record($0) }
            screen.lifecycle.move(to: .created)
            live.publish(value: 2)
            #expect(seen.events == [])
            screen.lifecycle.move(to: .started)
            #expect(seen.events == [2])
            screen.lifecycle.move(to: .resumed)
            live.publish(value: 3)
            screen.lifecycle.move(to: .started)
            live.publish(value: 4)
            screen.lifecycle.move(to: .created)
            live.publish(value: 5)
            #expect(seen.events == [2, 3, 4])
        }
    }

    @Test func redeliversTheLatestValueExactlyOnceOnBecomingActive() {
        withLedger { _ in
            let live = LiveData<Int>()
            let screen = Screen()
            let seen = Recorder<Int>()
            live.observe(boundTo: screen) { seen.record($0) }
            screen.lifecycle.move(to: .resumed)
            live.publish(value: 1)
            screen.lifecycle.move(to: .created)  // stop…
            screen.lifecycle.move(to: .resumed)  // …and start without a new value: no duplicate
            #expect(seen.events == [1])
            screen.lifecycle.move(to: .created)
            live.publish(value: 2)
            live.publish(value: 3)
            live.publish(value: 4)
            screen.lifecycle.move(to: .started)  // only the newest of those
            #expect(seen.events == [1, 4])
        }
    }

    @Test func ledgerEntryIsPausedWhileInactive() {
        withLedger { ledger in
            let live = LiveData(0)
            let screen = Screen()
            live.observe(boundTo: screen) { _ in }
            var paused: [Int] = [ledger.counters.paused]
            for state in [Lifecycle.State.created, .started, .resumed, .started, .created, .started] {
                screen.lifecycle.move(to: state)
                paused.append(ledger.counters.paused)
            }
            #expect(paused == [1, 1, 0, 0, 0, 1, 0])
            let entry = ledger.snapshotRearmingOnChange().owners.first?.entries.first
            #expect(entry?.kind == .observer)
            #expect(entry?.state == .active)
            #expect(ledger.snapshotRearmingOnChange().owners.first?.id.description == "Screen#1")
        }
    }

    @Test func removedWhenTheLifecycleIsDestroyed() {
        withLedger { ledger in
            let live = LiveData(0)
            let screen = Screen()
            let seen = Recorder<Int>()
            live.observe(boundTo: screen) { seen.record($0) }
            screen.lifecycle.move(to: .resumed)
            screen.lifecycle.move(to: .destroyed)
            live.publish(value: 1)
            #expect(seen.events == [0])
            #expect(live.observerCount == 0)
            #expect(ledger.counters.observers == 0)
            #expect(ledger.counters.paused == 0)
            #expect(
                ledger.snapshotRearmingOnChange().events.filter { $0.entryKind == .observer }.map(\.kind) == [
                    .created, .cancelled,
                ])
        }
    }

    @Test func removedWhenTheOwnerDies() {
        withLedger { ledger in
            let live = LiveData(0)
            let seen = Recorder<Int>()
            do {
                let screen = Screen()
                live.observe(boundTo: screen) { seen.record($0) }
                screen.lifecycle.move(to: .started)
            }
            #expect(live.observerCount == 0)
            #expect(ledger.counters.observers == 0)
            live.publish(value: 1)
            #expect(seen.events == [0])
        }
    }

    /// Something else holds the lifecycle (a coordinator, a task repeating on it): its lifetime
    /// outlives the owner, and the first publish after the owner is gone removes the registration.
    @Test func removedWhenTheOwnerDiesThoughItsLifecycleIsHeldElsewhere() {
        withLedger { ledger in
            let live = LiveData(0)
            let seen = Recorder<Int>()
            var screen: Screen? = Screen()
            let lifecycle = screen!.lifecycle
            lifecycle.move(to: .resumed)
            live.observe(boundTo: screen!) { seen.record($0) }
            screen = nil
            live.publish(value: 1)
            #expect(seen.events == [0])
            #expect(live.observerCount == 0)
            #expect(ledger.counters.observers == 0)
            withExtendedLifetime(lifecycle) {}
        }
    }

    /// A snapshot taken while the lifetime's end is under way (by an action it runs), after the
    /// paused entry was ended and before the ledger closed it: it lists the entry as its counters
    /// count it.
    @Test func aSnapshotDuringTheEndListsThePausedEntryAsItCountsIt() throws {
        try withLedger { ledger in
            let live = LiveData(0)
            let screen = Screen()
            let taken = Slot<LedgerSnapshot>()
            // Runs after the removal.
            screen.lifecycle.lifetime.onEnd { taken.put(ledger.snapshotRearmingOnChange()) }
            screen.lifecycle.move(to: .created)
            live.observe(boundTo: screen) { _ in }
            #expect(ledger.counters.paused == 1)
            screen.lifecycle.lifetime.end()
            let snapshot = try #require(taken.value)
            let listed = snapshot.owners.flatMap(\.entries).filter { $0.state == .paused }
            #expect(snapshot.counters.paused == 1)
            #expect(listed.count == 1)
            #expect(ledger.counters.paused == 0)
        }
    }

    @Test func ignoredWhenTheOwnerIsAlreadyDestroyed() {
        withLedger { ledger in
            let live = LiveData(0)
            let screen = Screen()
            screen.lifecycle.move(to: .destroyed)
            let seen = Recorder<Int>()
            live.observe(boundTo: screen) { seen.record($0) }
            live.publish(value: 1)
            #expect(seen.events == [])
            #expect(live.observerCount == 0)
            #expect(ledger.counters.observers == 0)
        }
    }

    @Test func removeObserverTakesTheLifecycleRegistration() {
        withLedger { ledger in
            let live = LiveData(0)
            let screen = Screen()
            let seen = Recorder<Int>()
            live.observe(boundTo: screen) { seen.record($0) }
            screen.lifecycle.move(to: .created)
            live.remove(observer: screen)
            #expect(ledger.counters.observers == 0)
            #expect(ledger.counters.paused == 0)
            screen.lifecycle.move(to: .started)
            #expect(seen.events == [])
        }
    }

    @Test func deactivatedDuringADispatchIsSkippedThenRedeliveredOnce() {
        withLedger { _ in
            let live = LiveData<Int>()
            let viewer = Viewer()
            let screen = Screen()
            let seen = Recorder<String>()
            live.add(observer: viewer, disposeBag: viewer.bag) { value in
                seen.record("viewer \(value)")
                screen.lifecycle.move(to: .created)
            }
            live.observe(boundTo: screen) { seen.record("screen \($0)") }
            screen.lifecycle.move(to: .started)
            live.publish(value: 1)
            #expect(seen.events == ["viewer 1"])
            screen.lifecycle.move(to: .started)
            screen.lifecycle.move(to: .created)
            screen.lifecycle.move(to: .started)
            #expect(seen.events == ["viewer 1", "screen 1"])
        }
    }

    @Test func movesAndPublishesFromTwoThreadsEndOnTheNewestValue() async {
        let ledger = Ledger(clock: ManualClock())
        await Ledger.$current.withValue(ledger) {
            let live = LiveData(0)
            let screen = Screen()
            let seen = Recorder<Int>()
            live.observe(boundTo: screen) { seen.record($0) }
            let rounds = 5_000
            await withTaskGroup(of: Void.self) { group in
                group.addTask { for value in 1...rounds { live.publish(value: value) } }
                group.addTask {
                    for round in 0..<rounds {
                        screen.lifecycle.move(to: round.isMultiple(of: 2) ? .started : .created)
                    }
                }
            }
            screen.lifecycle.move(to: .resumed)
            let values = seen.events
            #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 })
            #expect(values.last == rounds)
        }
    }
}
