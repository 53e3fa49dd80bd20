import Dispatch
import Testing
import Tether

/// The three promises and two guarantees the first adversarial review found broken; each test
/// fails on the code before its fix.
@Suite struct BrokenPromisesTests {
    // MARK: 1. Nothing reaches a bound sink after its lifetime's end has returned

    @Test func aSinkThatEndsItsLifetimeWhileSubscribingReceivesNothingMore() {
        let fixture = LedgerFixture()
        let received = Recorder<Int>()
        fixture.run {
            let owner = StreamsOwner()
            (1...5).publisher.sink(boundTo: owner.bag) { value in
                received.record(value)
                if value == 2 { owner.bag.end() }
            }
        }
        #expect(received.events == [1, 2])
        #expect(fixture.ledger.counters.zombies == 0)
        #expect(fixture.ledger.counters.subscriptions == 0)
    }

    @Test func aPrependedValueThatEndsTheLifetimeCutsTheRest() {
        let fixture = LedgerFixture()
        let received = Recorder<Int>()
        let subject = CurrentValueSubject<Int, Never>(10)
        fixture.run {
            let owner = StreamsOwner()
            subject.prepend(0).sink(boundTo: owner.bag) { value in
                received.record(value)
                owner.bag.end()
            }
        }
        subject.send(11)
        #expect(received.events == [0])
        #expect(fixture.ledger.counters.zombies == 0)
    }

    @Test func aLifetimeEndedOnAnotherThreadDuringSubscribeCutsTheValuesAfterIt() {
        let fixture = LedgerFixture()
        let received = Recorder<Int>()
        fixture.run {
            let owner = StreamsOwner()
            // Hands over its subscription, has another thread end the lifetime (and waits for
            // it), then emits: every value comes after the end has returned.
            let publisher = EmitAfter(values: [1, 2, 3]) {
                DispatchQueue.global().sync { owner.bag.end() }
            }
            publisher.sink(boundTo: owner.bag) { received.record($0) }
        }
        #expect(received.events == [])
        #expect(fixture.ledger.counters.zombies == 0)
    }

    // MARK: 2. Two bound properties hold the same value after writes made inside handlers

    @Test func aClampingHandlerLeavesBothSidesOfABindingOnTheClampedValue() {
        let level = ObservedProperty(0)
        let position = ObservedProperty(0)
        #expect(level.bind(position))
        let clamp = level.observe(.did) { new, _ in
            if new > 10 { level.value = 10 }
        }
        level.value = 15
        #expect(level.value == 10)
        #expect(position.value == 10)
        position.value = 20
        #expect(level.value == 10)
        #expect(position.value == 10)
        position.value = 7
        #expect(level.value == 7)
        #expect(position.value == 7)
        #expect(level.remove(clamp))
    }

    @Test func aHandlerOnTheFarSideThatRewritesWinsOnBothSides() {
        let level = ObservedProperty(0)
        let position = ObservedProperty(0)
        #expect(level.bind(position))
        let writes = Recorder<Int>()
        _ = level.observe(.did) { new, _ in writes.record(new) }
        // The slider snaps to even positions.
        _ = position.observe(.did) { new, _ in
            if new % 2 != 0 { position.value = new + 1 }
        }
        level.value = 5
        #expect(level.value == 6)
        #expect(position.value == 6)
        #expect(writes.events == [5, 6], "each write is seen once: no echo")
    }

    // MARK: 3. An owner leaves `ending` as soon as it and all it owned are gone

    @Test func anOwnerLeavesEndingWhenItsLastTaskReturnsNotAtTheVerdict() async {
        let fixture = LedgerFixture()
        let gate = Gate()
        let task = fixture.run { () -> Task<Void, Never> in
            let owner = StreamsOwner()
            // Ignores its cancellation until the gate opens.
            return Task(boundTo: owner.bag) { await gate.wait() }
        }
        #expect(fixture.ledger.counters.ending == 1, "released while its task winds down")
        gate.open()
        await task.value
        #expect(fixture.ledger.counters.ending == 0)
        #expect(fixture.ledger.snapshotRearmingOnChange().owners.isEmpty)
        #expect(fixture.clock.now == .zero, "no time passed: no verdict ran")
        fixture.passGracePeriod()
        #expect(fixture.ledger.snapshotRearmingOnChange().leaks.isEmpty)
    }

    // MARK: Guarantees

    @Test func aTaskStartedOnAnEndedLifetimeNeverRunsItsBody() async {
        let fixture = LedgerFixture()
        let ran = Recorder<String>()
        let lifetime = fixture.run { Lifetime() }
        lifetime.end()
        for _ in 0..<100 {
            await Task(boundTo: lifetime) { ran.record("body") }.value
        }
        #expect(ran.events.isEmpty)
        #expect(fixture.ledger.counters.tasks == 0)
    }
}

/// A publisher that hands its subscriber a subscription, runs `between`, then sends `values`
/// whatever the demand — as `Just` or a sequence sends while being subscribed.
private struct EmitAfter: Publisher {
    typealias Output = Int
    typealias Failure = Never

    let values: [Int]
    let between: @Sendable () -> Void

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscriber.receive(subscription: Subscriptions.empty)
        between()
        for value in values { _ = subscriber.receive(value) }
    }
}
