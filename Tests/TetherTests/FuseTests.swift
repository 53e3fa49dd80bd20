import Dispatch
import Synchronization
import Testing

@testable import Tether

/// A holder, as in the seed: keeps the fuses' tokens.
private final class Holder {
    var cancellables = Set<AnyCancellable>()
    var slot: AnyCancellable?
}

@Suite struct FuseTests {
    @Test func deliversValuesSynchronouslyWhileTheHolderLives() {
        withOwnLedger {
            let holder = Holder()
            let subject = PassthroughSubject<Int, Never>()
            let recorder = StreamsRecorder<Int>()
            subject.fuse(heldBy: holder, on: \.cancellables).subscribe(recorder)
            subject.send(1)
            #expect(recorder.events == [.subscribed, .value(1)])
            subject.send(completion: .finished)
            #expect(recorder.events == [.subscribed, .value(1), .finished])
        }
    }

    @Test func cancelsUpstreamAndFinishesDownstreamWhenTheHolderDeinitializes() {
        withOwnLedger {
            let subject = PassthroughSubject<Int, Never>()
            let recorder = StreamsRecorder<Int>()
            let upstreamCancels = Mutex(0)
            weak var probe: StreamsProbe?
            do {
                let holder = Holder()
                let captured = StreamsProbe()
                probe = captured
                subject
                    .handleEvents(receiveCancel: { upstreamCancels.withLock { $0 += 1 } })
                    .map { value in withExtendedLifetime(captured) { value * 10 } }
                    .fuse(heldBy: holder, on: \.cancellables)
                    .subscribe(recorder)
                subject.send(1)
            }
            subject.send(2)
            #expect(recorder.events == [.subscribed, .value(10), .finished])
            #expect(upstreamCancels.withLock { $0 } == 1)
            #expect(probe == nil, "the closures above the fuse are released")
        }
    }

    /// Upstream completes, and releasing its subscription — held by the fuse alone — releases the
    /// holder, which blows the fuse: the release comes after unlocking, so the blow finds the
    /// subscription ended instead of locking it again.
    @Test func aCompletionWhoseReleaseEndsTheHolderFinishesOnce() {
        withOwnLedger {
            let sender = CompletionSender()
            let recorder = StreamsRecorder<Int>()
            weak var released: Holder?
            do {
                let holder = Holder()
                released = holder
                HoldingPublisher(sender: sender, held: holder)
                    .fuse(heldBy: holder, on: \.cancellables)
                    .subscribe(recorder)
            }
            #expect(released != nil, "only the upstream subscription holds the holder")
            sender.finish()
            #expect(released == nil)
            #expect(recorder.events == [.subscribed, .finished])
        }
    }

    @Test func blowingReleasesASubscriberThatKeepsItsSubscription() {
        withOwnLedger {
            let subject = PassthroughSubject<Int, Never>()
            var holder: Holder? = Holder()
            weak var released: StreamsRecorder<Int>?
            do {
                // The recorder holds its subscription for good: only the fuse can break the cycle.
                let recorder = StreamsRecorder<Int>()
                released = recorder
                subject.fuse(heldBy: holder!, on: \.cancellables).subscribe(recorder)
                subject.send(1)
                holder = nil
                #expect(recorder.events == [.subscribed, .value(1), .finished])
            }
            #expect(released == nil, "the blown subscription let go of its subscriber")
        }
    }

    @Test func finishesASubscriberThatArrivesAfterTheFuseBlew() {
        withOwnLedger {
            let subject = PassthroughSubject<Int, Never>()
            var holder: Holder? = Holder()
            let fused = subject.fuse(heldBy: holder!, on: \.cancellables)
            holder = nil
            #expect(fused.isBlown)
            let recorder = StreamsRecorder<Int>()
            fused.subscribe(recorder)
            subject.send(1)
            #expect(recorder.events == [.subscribed, .finished])
        }
    }

    @Test func blowsWhenItsTokenIsCancelled() {
        withOwnLedger {
            let holder = Holder()
            let subject = PassthroughSubject<Int, Never>()
            let recorder = StreamsRecorder<Int>()
            subject.fuse(heldBy: holder, on: \.cancellables).subscribe(recorder)
            holder.cancellables.first?.cancel()
            subject.send(1)
            #expect(recorder.events == [.subscribed, .finished])
        }
    }

    @Test func cancellingOneSubscriptionLeavesTheOthers() {
        withOwnLedger {
            let holder = Holder()
            let subject = PassthroughSubject<Int, Never>()
            let fused = subject.fuse(heldBy: holder, on: \.cancellables)
            let first = StreamsRecorder<Int>()
            let second = StreamsRecorder<Int>()
            fused.subscribe(first)
            fused.subscribe(second)
            subject.send(1)
            first.cancel()
            subject.send(2)
            #expect(first.events == [.subscribed, .value(1)])
            #expect(second.events == [.subscribed, .value(1), .value(2)])
        }
    }

    @Test func theNextFuseTakesOutTheTokenOfOneNoLongerUsed() {
        withOwnLedger {
            let holder = Holder()
            let subject = PassthroughSubject<Int, Never>()
            let unrelated = AnyCancellable {}
            holder.cancellables.insert(unrelated)
            for value in 0..<1_000 {
                do {
                    let fused = subject.fuse(heldBy: holder, on: \.cancellables)
                    let cancellable = fused.sink { _ in }
                    subject.send(value)
                    #expect(holder.cancellables.count == 2, "this fuse's token and the unrelated one")
                    cancellable.cancel()
                }
                #expect(holder.cancellables.count == 2, "released, the fuse writes nothing")
            }
            let inUse = subject.fuse(heldBy: holder, on: \.cancellables)
            let second = subject.fuse(heldBy: holder, on: \.cancellables)
            #expect(holder.cancellables.count == 3, "a fuse still referenced keeps its token")
            #expect(holder.cancellables.contains(unrelated))
            _ = (inUse, second)
        }
    }

    /// The holder's own set releases a subscription through the holder's fuse while it is being
    /// written: the fuse, released then, writes nothing (it used to take its token out of the
    /// set in the middle of that write: a simultaneous access, a crash).
    @Test func aSetReleasingASubscriptionThroughItsOwnFuseIsNotWrittenMeanwhile() {
        withOwnLedger {
            let holder = Holder()
            let subject = PassthroughSubject<Int, Never>()
            let values = Recorder<Int>()
            let sink: ObjectIdentifier
            do {
                let cancellable = subject.fuse(heldBy: holder, on: \.cancellables).sink { values.record($0) }
                sink = ObjectIdentifier(cancellable)
                holder.cancellables.insert(cancellable)
            }
            subject.send(1)
            holder.cancellables = holder.cancellables.filter { ObjectIdentifier($0) != sink }
            subject.send(2)
            #expect(values.events == [1])
            #expect(holder.cancellables.count == 1, "the fuse's token, retired")
            _ = subject.fuse(heldBy: holder, on: \.cancellables)
            #expect(holder.cancellables.count == 1, "the new fuse's token took the retired one's place")
        }
    }

    @Test func optionalSlotTakesTheTokenAndCancelsWhatWasThere() {
        withOwnLedger {
            let holder = Holder()
            let previousCancelled = Mutex(false)
            holder.slot = AnyCancellable { previousCancelled.withLock { $0 = true } }
            let subject = PassthroughSubject<Int, Never>()
            let recorder = StreamsRecorder<Int>()
            subject.fuse(heldBy: holder, on: \.slot).subscribe(recorder)
            #expect(previousCancelled.withLock { $0 })
            #expect(holder.slot != nil)
            subject.send(1)
            holder.slot = nil
            subject.send(2)
            #expect(recorder.events == [.subscribed, .value(1), .finished])
        }
    }

    /// Released, a fuse leaves its token in the slot, doing nothing; the next fuse's token
    /// replaces it, and cancelling the old one there blows nothing.
    @Test func optionalSlotKeepsTheLastFusesTokenAlone() {
        withOwnLedger {
            let holder = Holder()
            let subject = PassthroughSubject<Int, Never>()
            do {
                let cancellable = subject.fuse(heldBy: holder, on: \.slot).sink { _ in }
                withExtendedLifetime(cancellable) {}
            }
            let retired = holder.slot.map(ObjectIdentifier.init)
            #expect(retired != nil, "released, the fuse writes nothing")
            let recorder = StreamsRecorder<Int>()
            subject.fuse(heldBy: holder, on: \.slot).subscribe(recorder)
            #expect(holder.slot.map(ObjectIdentifier.init) != retired)
            subject.send(1)
            #expect(recorder.events == [.subscribed, .value(1)])
        }
    }

    @Test func eachSubscriptionIsALedgerEntryCountingDeliveriesUntilItEnds() {
        let ledger = Ledger(clock: ManualClock())
        Ledger.$current.withValue(ledger) {
            var holder: Holder? = Holder()
            let subject = PassthroughSubject<Int, Never>()
            let fused = subject.fuse(heldBy: holder!, on: \.cancellables)
            let cancellable = fused.sink { _ in }
            let recorder = StreamsRecorder<Int>()
            fused.subscribe(recorder)
            subject.send(1)
            subject.send(2)
            let entries = ledger.snapshotRearmingOnChange().unowned
            #expect(entries.map(\.kind) == [.subscription, .subscription])
            #expect(entries.map(\.deliveries) == [2, 2])
            cancellable.cancel()
            #expect(ledger.counters.subscriptions == 1)
            holder = nil
            #expect(ledger.counters.subscriptions == 0)
            let ends = ledger.snapshotRearmingOnChange().events.filter { $0.entryKind == .subscription }.map(
                \.kind)
            #expect(ends == [.created, .created, .cancelled, .cancelled])
        }
    }

    @Test func holderDeinitializingWhileValuesAreSentElsewhereFinishesExactlyOnce() {
        withOwnLedger {
            for _ in 0..<3_000 {
                let events = raceTheHolderDeinit { subject in
                    for value in 0..<10 { subject.send(value) }
                }
                let values = events.compactMap { event -> Int? in
                    if case .value(let value) = event { value } else { nil }
                }
                #expect(values == Array(0..<values.count))
            }
        }
    }

    @Test func cancellingWhileValuesAreSentElsewhereEndsCleanlyAndReleasesTheSubscriber() {
        withOwnLedger {
            let holder = Holder()
            for _ in 0..<2_000 {
                let subject = PassthroughSubject<Int, Never>()
                weak var released: StreamsRecorder<Int>?
                do {
                    let recorder = StreamsRecorder<Int>()
                    released = recorder
                    subject.fuse(heldBy: holder, on: \.cancellables).subscribe(recorder)
                    let sender = Slot(subject)
                    DispatchQueue.concurrentPerform(iterations: 2) { index in
                        if index == 0 {
                            for value in 0..<10 { sender.value!.send(value) }
                        } else {
                            recorder.cancel()
                        }
                    }
                    let events = recorder.events
                    #expect(events.first == .subscribed)
                    #expect(!events.contains(.finished))
                    let values = events.compactMap { event -> Int? in
                        if case .value(let value) = event { value } else { nil }
                    }
                    #expect(values == Array(0..<values.count))
                }
                #expect(released == nil, "the fuse released the cancelled subscriber")
            }
            #expect(holder.cancellables.count == 1, "each fuse made took out the token of the one before")
        }
    }

    @Test func cancellingFromInsideADeliveryReleasesTheSubscriberWhenItReturns() {
        withOwnLedger {
            let holder = Holder()
            let subject = PassthroughSubject<Int, Never>()
            weak var released: SelfCancellingSubscriber?
            do {
                let subscriber = SelfCancellingSubscriber()
                released = subscriber
                subject.fuse(heldBy: holder, on: \.cancellables).subscribe(subscriber)
                subject.send(1)
                subject.send(2)
                #expect(subscriber.values == [1])
            }
            #expect(released == nil)
        }
    }

    @Test func holderDeinitializingDuringADeliveryFinishesAfterIt() {
        withOwnLedger {
            let subject = PassthroughSubject<Int, Never>()
            let recorder = StreamsRecorder<Int>()
            var holder: Holder? = Holder()
            let held = Slot(holder!)
            let fused = subject.fuse(heldBy: holder!, on: \.cancellables)
            holder = nil
            fused
                .handleEvents(receiveOutput: { _ in held.take() })  // the fuse blows here
                .subscribe(recorder)
            subject.send(1)
            subject.send(2)
            #expect(fused.isBlown)
            #expect(recorder.events == [.subscribed, .value(1), .finished])
        }
    }

    @Test func upstreamFinishingWhileTheHolderDeinitializesFinishesExactlyOnce() {
        withOwnLedger {
            for _ in 0..<2_000 {
                _ = raceTheHolderDeinit { subject in
                    subject.send(1)
                    subject.send(completion: .finished)
                }
            }
        }
    }

    /// Runs `send` on one thread while the fuse's holder deinitializes on another; checks that
    /// the subscriber was subscribed first and finished exactly once, last, and returns what it saw.
    private func raceTheHolderDeinit(
        _ send: @escaping @Sendable (PassthroughSubject<Int, Never>) -> Void
    ) -> [StreamsEvent<Int>] {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = StreamsRecorder<Int>()
        var holder: Holder? = Holder()
        subject.fuse(heldBy: holder!, on: \.cancellables).subscribe(recorder)
        let held = Slot(holder!)
        holder = nil
        let sender = Slot(subject)
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            if index == 0 { send(sender.value!) } else { held.take() }  // the holder deinitializes
        }
        let events = recorder.events
        #expect(events.first == .subscribed)
        #expect(events.last == .finished)
        #expect(events.filter { $0 == .finished }.count == 1)
        return events
    }
}

/// A subscriber that cancels its subscription from inside its first value's delivery.
private final class SelfCancellingSubscriber: Subscriber, Sendable {
    typealias Input = Int
    typealias Failure = Never

    private struct State {
        var subscription: (any Subscription)?
        var received: [Int] = []
    }

    private let state = LockedBox(State())

    var values: [Int] { state.withLock { $0.received } }

    func receive(subscription: any Subscription) {
        state.withLock { $0.subscription = subscription }
        subscription.request(.unlimited)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        let subscription = state.withLock { state in
            state.received.append(input)
            return state.subscription.take()
        }
        subscription?.cancel()
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}
}

/// Sends a completion to the subscriber it was given, holding nothing else.
private final class CompletionSender {
    var subscriber: AnySubscriber<Int, Never>?

    func finish() { subscriber?.receive(completion: .finished) }
}

/// A publisher whose subscription holds `held`, and is held only by its subscriber.
private struct HoldingPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    let sender: CompletionSender
    let held: AnyObject

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        sender.subscriber = AnySubscriber(subscriber)
        subscriber.receive(subscription: Holding(held: held))
    }

    private final class Holding: Subscription {
        let held: AnyObject
        init(held: AnyObject) { self.held = held }
        func request(_ demand: Subscribers.Demand) {}
        func cancel() {}
    }
}
