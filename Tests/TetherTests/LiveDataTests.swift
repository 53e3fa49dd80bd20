import Synchronization
import Testing

@testable import Tether

/// An observer that owns a bag, as a view does.
final class Viewer: Sendable {
    let bag: DisposeBag
    let name: String

    init(_ name: String = "viewer", ledger: Ledger = .current) {
        self.name = name
        bag = DisposeBag(ledger: ledger)
        bag.track(self)
    }
}

/// Runs `body` with its own ledger on a manual clock.
func withLedger<R>(_ body: (Ledger) throws -> R) rethrows -> R {
    let ledger = Ledger(clock: ManualClock())
    return try Ledger.$current.withValue(ledger) { try body(ledger) }
}

@Suite struct LiveDataTests {
    @Test func deliversCurrentValueAtOnceWhenAdded() {
        withLedger { _ in
            let live = LiveData(1)
            let viewer = Viewer()
            let seen = Recorder<Int>()
            live.add(observer: viewer, disposeBag: viewer.bag) { seen.record($0) }
            #expect(seen.events == [1])
            live.publish(value: 2)
            #expect(seen.events == [1, 2])
            #expect(live.value == 2)
        }
    }

    @Test func deliversNothingBeforeTheFirstPublish() {
        withLedger { _ in
            let live = LiveData<Int>()
            let viewer = Viewer()
            let seen = Recorder<Int>()
            live.add(observer: viewer, disposeBag: viewer.bag) { seen.record($0) }
            #expect(seen.events == [])
            #expect(live.value == nil)
            live.publish(value: 7)
            #expect(seen.events == [7])
        }
    }

    @Test func eachAddIsItsOwnRegistrationCalledInOrder() {
        withLedger { ledger in
            let live = LiveData<Int>()
            let first = Viewer("first")
            let second = Viewer("second")
            let seen = Recorder<String>()
            live.add(observer: first, disposeBag: first.bag) { seen.record("first.1 \($0)") }
            live.add(observer: first, disposeBag: first.bag) { seen.record("first.2 \($0)") }
            live.add(observer: second, disposeBag: second.bag) { seen.record("second \($0)") }
            live.publish(value: 1)
            #expect(seen.events == ["first.1 1", "first.2 1", "second 1"])
            #expect(live.observerCount == 3)
            #expect(ledger.counters.observers == 3)
        }
    }

    @Test func removeTakesAllOfAnObserversRegistrations() {
        withLedger { ledger in
            let live = LiveData(0)
            let first = Viewer("first")
            let second = Viewer("second")
            let seen = Recorder<String>()
            live.add(observer: first, disposeBag: first.bag) { seen.record("first.1 \($0)") }
            live.add(observer: first, disposeBag: first.bag) { seen.record("first.2 \($0)") }
            live.add(observer: second, disposeBag: second.bag) { seen.record("second \($0)") }
            live.remove(observer: first)
            live.publish(value: 1)
            #expect(seen.events == ["first.1 0", "first.2 0", "second 0", "second 1"])
            #expect(live.observerCount == 1)
            #expect(ledger.counters.observers == 1)
        }
    }

    @Test func bagEndRemovesItsObserversAndEndsTheirEntries() {
        withLedger { ledger in
            let live = LiveData(0)
            let seen = Recorder<Int>()
            do {
                let viewer = Viewer()
                live.add(observer: viewer, disposeBag: viewer.bag) { seen.record($0) }
                let owners = ledger.snapshotRearmingOnChange().owners
                #expect(owners.map(\.id.description) == ["Viewer#1"])
                #expect(owners.first?.entries.map(\.kind) == [.observer])
                #expect(ledger.counters.observers == 1)
            }
            #expect(ledger.counters.observers == 0)
            #expect(live.observerCount == 0)
            live.publish(value: 1)
            #expect(seen.events == [0])
            #expect(ledger.counters.zombies == 0)
        }
    }

    @Test func aDeadObserverIsNeverCalledAndIsPruned() {
        withLedger { ledger in
            let live = LiveData(0)
            let bag = DisposeBag()
            let seen = Recorder<Int>()
            do {
                let observer = Viewer()
                live.add(observer: observer, disposeBag: bag) { seen.record($0) }
            }
            #expect(live.observerCount == 0)
            #expect(ledger.counters.observers == 1)  // pruned at the next dispatch
            live.publish(value: 1)
            #expect(seen.events == [0])
            #expect(ledger.counters.observers == 0)
        }
    }

    @Test func aDeadObserverOnAnotherOwnersBagIsNeverCalledAndIsPruned() {
        withLedger { ledger in
            let live = LiveData(0)
            let keeper = Viewer("keeper")  // tracks its bag: the bag does not end with the observer
            let seen = Recorder<Int>()
            do {
                let observer = Viewer("observer")
                live.add(observer: observer, disposeBag: keeper.bag) { seen.record($0) }
            }
            live.publish(value: 1)
            #expect(seen.events == [0])
            #expect(live.observerCount == 0)
            #expect(ledger.counters.observers == 0)
        }
    }

    @Test func anObserverThatTracksItsBagIsRemovedWhenItGoesEvenWithTheLedgerOff() {
        let ledger = Ledger(clock: ManualClock(), isEnabled: false)
        Ledger.$current.withValue(ledger) {
            let live = LiveData(0)
            let seen = Recorder<Int>()
            do {
                let viewer = Viewer()
                live.add(observer: viewer, disposeBag: viewer.bag) { seen.record($0) }
                live.publish(value: 1)
            }
            live.publish(value: 2)
            #expect(seen.events == [0, 1])
            #expect(live.observerCount == 0)
        }
    }

    @Test func addingWithAnEndedBagRegistersNothing() {
        withLedger { ledger in
            let live = LiveData(0)
            let viewer = Viewer()
            viewer.bag.dispose()
            let seen = Recorder<Int>()
            live.add(observer: viewer, disposeBag: viewer.bag) { seen.record($0) }
            #expect(seen.events == [])
            #expect(live.observerCount == 0)
            #expect(ledger.counters.observers == 0)
        }
    }

    @Test func countsDeliveriesInTheLedger() {
        withLedger { ledger in
            let live = LiveData(0)
            let viewer = Viewer()
            live.add(observer: viewer, disposeBag: viewer.bag) { _ in }
            live.publish(value: 1)
            live.publish(value: 2)
            let entry = ledger.snapshotRearmingOnChange().owners.first?.entries.first
            #expect(entry?.deliveries == 3)
            #expect(entry?.bound == true)
            #expect(entry?.site.file == "LiveDataTests.swift")
        }
    }

    // androidx's testSetValueDuringSetValue: the nested value wins and nobody sees the old one late.
    @Test func nestedPublishSupersedesDispatchInProgress() {
        withLedger { _ in
            let live = LiveData<String>()
            let first = Viewer("first")
            let second = Viewer("second")
            let seen = Recorder<String>()
            live.add(observer: first, disposeBag: first.bag) { value in
                seen.record("first \(value)")
                if value == "bla" { live.publish(value: "gt") }
            }
            live.add(observer: second, disposeBag: second.bag) { seen.record("second \($0)") }
            live.publish(value: "bla")
            #expect(seen.events == ["first bla", "first gt", "second gt"])
            #expect(live.value == "gt")
        }
    }

    // androidx's testObserverRemovalInCallback.
    @Test func removalInACompletionStopsALaterObserver() {
        withLedger { ledger in
            let live = LiveData<Int>()
            let first = Viewer("first")
            let second = Viewer("second")
            let seen = Recorder<String>()
            live.add(observer: first, disposeBag: first.bag) { value in
                seen.record("first \(value)")
                live.remove(observer: second)
            }
            live.add(observer: second, disposeBag: second.bag) { seen.record("second \($0)") }
            live.publish(value: 1)
            live.publish(value: 2)
            #expect(seen.events == ["first 1", "first 2"])
            #expect(ledger.counters.observers == 1)
        }
    }

    // androidx's testObserverAdditionInCallback.
    @Test func additionInACompletionReceivesTheNewestValueOnce() {
        withLedger { _ in
            let live = LiveData<Int>()
            let first = Viewer("first")
            let second = Viewer("second")
            let seen = Recorder<String>()
            live.add(observer: first, disposeBag: first.bag) { value in
                seen.record("first \(value)")
                if value == 1 {
                    live.add(observer: second, disposeBag: second.bag) { seen.record("second \($0)") }
                }
            }
            live.publish(value: 1)
            live.publish(value: 2)
            #expect(seen.events == ["first 1", "second 1", "first 2", "second 2"])
        }
    }

    @Test func publishCallsEachOfManyObserversExactlyOnceInOrder() {
        withLedger { _ in
            let live = LiveData<Int>()
            let viewers = (0..<50).map { Viewer("viewer \($0)") }
            let seen = Recorder<String>()
            for (index, viewer) in viewers.enumerated() {
                live.add(observer: viewer, disposeBag: viewer.bag) { seen.record("\(index):\($0)") }
            }
            live.publish(value: 1)
            live.publish(value: 2)
            #expect(seen.events == (1...2).flatMap { value in viewers.indices.map { "\($0):\(value)" } })
        }
    }

    @Test func nestedPublishMidwayRestartsWithTheNewestValueForEveryObserver() {
        withLedger { _ in
            let live = LiveData<Int>()
            let viewers = (0..<5).map { Viewer("viewer \($0)") }
            let seen = Recorder<String>()
            for (index, viewer) in viewers.enumerated() {
                live.add(observer: viewer, disposeBag: viewer.bag) { value in
                    seen.record("\(index):\(value)")
                    if index == 2, value == 1 { live.publish(value: 2) }
                }
            }
            live.publish(value: 1)
            #expect(seen.events == ["0:1", "1:1", "2:1", "0:2", "1:2", "2:2", "3:2", "4:2"])
        }
    }

    @Test func anObserverReleasedByAnEarlierCompletionIsNotCalledAndIsPruned() {
        withLedger { ledger in
            let live = LiveData<Int>()
            let bag = DisposeBag()
            let seen = Recorder<String>()
            let first = Viewer("first")
            let second = Mutex<Viewer?>(Viewer("second"))
            live.add(observer: first, disposeBag: first.bag) { value in
                seen.record("first \(value)")
                _ = second.withLock { $0.take() }  // released after unlocking
            }
            live.add(observer: second.withLock { $0! }, disposeBag: bag) { seen.record("second \($0)") }
            live.publish(value: 1)
            #expect(seen.events == ["first 1"])
            #expect(live.observerCount == 1)
            #expect(ledger.counters.observers == 1)
        }
    }

    @Test func releasingTheLiveDataEndsItsEntries() {
        withLedger { ledger in
            let viewer = Viewer()
            do {
                let live = LiveData(0)
                live.add(observer: viewer, disposeBag: viewer.bag) { _ in }
                #expect(ledger.counters.observers == 1)
            }
            #expect(ledger.counters.observers == 0)
        }
    }

    @MainActor @Test func mainActorObserverReadsItsStateInAssumeIsolated() {
        withLedger { _ in
            @MainActor final class Screen {
                let bag = DisposeBag()
                var shown: [Int] = []
                init(_ live: LiveData<Int>) {
                    live.add(observer: self, disposeBag: bag) { [weak self] value in
                        MainActor.assumeIsolated { self?.shown.append(value) }
                    }
                }
            }
            let live = LiveData(1)
            let screen = Screen(live)
            live.publish(value: 2)
            #expect(screen.shown == [1, 2])
        }
    }

    @Test func publishingWhileBagsEndOnAnotherThreadStaysOrderedAndClean() async {
        let ledger = Ledger(clock: ManualClock())
        await Ledger.$current.withValue(ledger) {
            let live = LiveData(0)
            let keeper = Viewer("keeper")
            let seen = Recorder<Int>()
            live.add(observer: keeper, disposeBag: keeper.bag) { seen.record($0) }
            let rounds = 5_000
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for value in 1...rounds { live.publish(value: value) }
                }
                group.addTask {
                    for _ in 0..<rounds {
                        let viewer = Viewer()
                        live.add(observer: viewer, disposeBag: viewer.bag) { _ in }
                    }
                }
                group.addTask {
                    for _ in 0..<rounds / 10 {
                        let viewer = Viewer()
                        live.add(observer: viewer, disposeBag: viewer.bag) { _ in
                            live.remove(observer: viewer)
                        }
                        viewer.bag.dispose()
                    }
                }
            }
            let values = seen.events
            #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 })
            #expect(values.last == rounds)
            #expect(live.observerCount == 1)
            #expect(ledger.counters.observers == 1)
        }
    }
}

@Suite struct LiveDataAttributedTests {
    /// A panel whose registration outlives the model it is attributed to.
    private final class Model {
        let bag = DisposeBag()
        init() { bag.track(self) }
    }

    @Test func registrationOutlivingItsOwnerIsALeakWithZombiesUntilItsBagEnds() throws {
        let fixture = LedgerFixture()
        let orientation = LiveData(0)
        let longLived = fixture.run { DisposeBag() }
        let panel = Viewer("panel", ledger: fixture.ledger)
        let received = Recorder<Int>()
        let line: UInt = #line + 3
        fixture.run {
            let model = Model()
            orientation.add(observer: panel, disposeBag: longLived, attributedTo: model.bag) {
                received.record($0)
            }
            model.bag.dispose()
        }
        orientation.publish(value: 1)
        fixture.passGracePeriod()
        var snapshot = fixture.ledger.snapshotRearmingOnChange()
        let leak = try #require(snapshot.leaks.first)
        #expect(leak.owner.typeName == "LiveDataAttributedTests.Model")
        #expect(leak.kind == .observer)
        #expect(leak.site.description == "LiveDataTests.swift:\(line)")
        #expect(snapshot.counters.zombies == 1)
        #expect(received.events == [0, 1])

        longLived.dispose()
        snapshot = fixture.ledger.snapshotRearmingOnChange()
        #expect(snapshot.counters.leaks == 0)
        #expect(orientation.observerCount == 0)
    }
}
