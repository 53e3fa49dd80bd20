import Testing

@testable import Tether

@Suite struct LifetimeTests {
    @Test func endCancelsInReverseOrderOfAdding() {
        let recorder = Recorder<Int>()
        let lifetime = Lifetime(ledger: Ledger(clock: ManualClock()))
        for index in 1...3 { lifetime.onEnd { recorder.record(index) } }
        lifetime.end()
        #expect(recorder.events == [3, 2, 1])
    }

    @Test func isTrackedOnlyByTheObjectThatTracksItWithTheLedgerOnOrOff() {
        for enabled in [true, false] {
            final class Owner {
                let lifetime: Lifetime
                init(_ ledger: Ledger) {
                    lifetime = Lifetime(ledger: ledger)
                    lifetime.track(self)
                }
            }
            let ledger = Ledger(clock: ManualClock(), isEnabled: enabled)
            let owner = Owner(ledger)
            let other = Owner(ledger)
            #expect(owner.lifetime.isTracked(by: owner))
            #expect(!owner.lifetime.isTracked(by: other))
            let id = owner.lifetime.ownerID
            owner.lifetime.track(other)  // a second track changes nothing
            #expect(owner.lifetime.isTracked(by: owner))
            #expect(owner.lifetime.ownerID == id)
            #expect(ledger.counters.owners == (enabled ? 2 : 0))
            let next = Owner(ledger).lifetime.ownerID?.serial
            #expect(next == (enabled ? 3 : nil), "the second track took no serial")
            #expect(!Lifetime(ledger: Ledger(clock: ManualClock())).isTracked(by: owner))
        }
    }

    /// A bag kept after the object that tracked it is gone: no object made later takes that
    /// object's address, which would pass it for the tracker (a `LiveData` observer that tracks
    /// its bag is never checked for liveness: it holds the bag).
    @Test func aGoneTrackersAddressIsNotReusedWhileItsLifetimeLives() {
        final class Plain {}
        withLedger { _ in
            let bag = DisposeBag()
            var tracker: Plain? = Plain()
            let identity = ObjectIdentifier(tracker!)
            bag.track(tracker!)
            tracker = nil
            // The allocator hands a freed block of this size out again at once.
            let reused = (0..<10_000).contains { _ in ObjectIdentifier(Plain()) == identity }
            #expect(!reused)

            let live = LiveData(0)
            let seen = Recorder<Int>()
            var observer: Plain? = Plain()
            live.add(observer: observer!, disposeBag: bag) { seen.record($0) }
            observer = nil
            live.publish(value: 1)
            #expect(seen.events == [0], "the observer is gone: never called again")
            #expect(live.observerCount == 0)
        }
    }

    @Test func endingTwiceRunsEverythingOnce() {
        let recorder = Recorder<Int>()
        let lifetime = Lifetime(ledger: Ledger(clock: ManualClock()))
        lifetime.onEnd { recorder.record(1) }
        lifetime.end()
        lifetime.end()
        #expect(recorder.events == [1])
        #expect(lifetime.isEnded)
    }

    @Test func addingToAnEndedLifetimeCancelsAtOnce() {
        let recorder = Recorder<String>()
        let lifetime = Lifetime(ledger: Ledger(clock: ManualClock()))
        lifetime.end()
        lifetime.onEnd { recorder.record("late") }
        #expect(recorder.events == ["late"])
    }

    @Test func deinitEndsTheLifetime() {
        let recorder = Recorder<String>()
        do {
            let lifetime = Lifetime(ledger: Ledger(clock: ManualClock()))
            lifetime.onEnd { recorder.record("ended") }
            #expect(recorder.events.isEmpty)
        }
        #expect(recorder.events == ["ended"])
    }

    @Test func removedWorkDoesNotRunAtTheEnd() {
        let recorder = Recorder<Int>()
        let lifetime = Lifetime(ledger: Ledger(clock: ManualClock()))
        let first = lifetime.onEnd { recorder.record(1) }
        lifetime.onEnd { recorder.record(2) }
        #expect(lifetime.remove(first))
        #expect(!lifetime.remove(first))
        lifetime.end()
        #expect(recorder.events == [2])
    }

    /// Tokens are numbered per lifetime: another lifetime's token, however numbered, added
    /// nothing here and takes nothing out.
    @Test func anotherLifetimesTokenTakesNothingOut() {
        let recorder = Recorder<String>()
        let ledger = Ledger(clock: ManualClock())
        let screen = Lifetime(ledger: ledger)
        let session = Lifetime(ledger: ledger)
        let token = screen.onEnd { recorder.record("screen") }
        session.onEnd { recorder.record("session") }
        #expect(!session.remove(token))
        session.end()
        #expect(recorder.events == ["session"])
        #expect(screen.remove(token))
    }

    /// Nor does the token of a lifetime that is gone, from one made later at its address (the
    /// allocator here hands the freed block out again at once).
    @Test func aGoneLifetimesTokenTakesNothingOutOfOneAtItsAddress() {
        let ledger = Ledger(clock: ManualClock())
        var gone: Lifetime? = Lifetime(ledger: ledger)
        let address = ObjectIdentifier(gone!)
        let token = gone!.onEnd {}
        gone = nil
        for _ in 0..<1_000 {
            let later = Lifetime(ledger: ledger)
            later.onEnd {}
            #expect(!later.remove(token))
            if ObjectIdentifier(later) == address { break }
        }
    }

    /// A subscription taken back out is released, and so cancelled: nothing else holds it.
    @Test func aRemovedSubscriptionIsCancelled() {
        let fixture = LedgerFixture()
        let lifetime = fixture.run { Lifetime() }
        let subject = PassthroughSubject<Int, Never>()
        let received = Recorder<Int>()
        let token = subject.sink { received.record($0) }.store(boundTo: lifetime)
        subject.send(1)
        #expect(lifetime.remove(token))
        subject.send(2)
        #expect(received.events == [1])
        #expect(fixture.ledger.counters.subscriptions == 0)
        #expect(!lifetime.isEnded)
    }

    @Test func cancelThatReentersTheLifetimeDoesNotDeadlock() {
        let recorder = Recorder<String>()
        let lifetime = Lifetime(ledger: Ledger(clock: ManualClock()))
        lifetime.onEnd { [lifetime] in
            // Re-entering from inside the end: adds cancel at once, end is a no-op.
            lifetime.onEnd { recorder.record("added during end") }
            lifetime.end()
            recorder.record("outer")
        }
        lifetime.end()
        #expect(recorder.events == ["added during end", "outer"])
    }

    @Test func storedSubscriptionIsCancelledWithItsBag() {
        let fixture = LedgerFixture()
        let subject = PassthroughSubject<Int, Never>()
        let received = Recorder<Int>()
        fixture.run {
            do {
                let bag = DisposeBag()
                subject.sink { received.record($0) }.store(boundTo: bag)
                subject.send(1)
                #expect(fixture.ledger.counters.subscriptions == 1)
            }
            subject.send(2)
        }
        #expect(received.events == [1])
        #expect(fixture.ledger.counters.subscriptions == 0)
    }

    @Test func parentEndEndsChildButChildDoesNotKeepParentAlive() {
        let recorder = Recorder<String>()
        let ledger = Ledger(clock: ManualClock())
        let parent = Lifetime(ledger: ledger)
        let child = Lifetime(boundTo: parent, ledger: ledger)
        child.onEnd { recorder.record("child") }
        parent.onEnd { recorder.record("parent") }
        parent.end()
        #expect(child.isEnded)
        #expect(recorder.events == ["parent", "child"])
    }

    /// A long-lived parent (a session's bag) does not keep an action for every child it ever had.
    @Test func aChildThatEndedLeavesNothingInItsParent() {
        let ledger = Ledger(clock: ManualClock())
        let parent = Lifetime(ledger: ledger)
        let kept = Lifetime(boundTo: parent, ledger: ledger)
        Lifetime(boundTo: parent, ledger: ledger).end()
        do { _ = Lifetime(boundTo: parent, ledger: ledger) }  // released: ends in its deinit
        #expect(parent.actionCount == 1)
        parent.end()
        #expect(kept.isEnded)
        #expect(parent.actionCount == 0)
    }

    /// A `sink(boundTo:)` whose publisher finished is no longer held by its lifetime.
    @Test func aFinishedBoundSinkLeavesNothingInItsLifetime() {
        let fixture = LedgerFixture()
        let lifetime = fixture.run { Lifetime() }
        let subject = PassthroughSubject<Int, Never>()
        let received = Recorder<Int>()
        Just(1).sink(boundTo: lifetime) { received.record($0) }
        subject.sink(boundTo: lifetime) { received.record($0) }
        #expect(lifetime.actionCount == 1)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(lifetime.actionCount == 0)
        #expect(received.events == [1, 2])
        #expect(fixture.ledger.counters.subscriptions == 0)
    }

    @Test func concurrentAddsAndEndRunEveryActionExactlyOnce() async {
        for _ in 0..<200 {
            let ledger = Ledger(clock: ManualClock())
            let lifetime = Lifetime(ledger: ledger)
            let counter = Recorder<Int>()
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    group.addTask { lifetime.onEnd { counter.record(index) } }
                }
                group.addTask { lifetime.end() }
            }
            lifetime.end()
            #expect(counter.events.count == 8)
        }
    }
}
