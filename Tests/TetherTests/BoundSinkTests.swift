import Dispatch
import Synchronization
import Testing

@testable import Tether

@Suite struct BoundSinkTests {
    @Test func deliversValuesAndCountsThemOnTheOwnersEntry() {
        let ledger = Ledger(clock: ManualClock())
        Ledger.$current.withValue(ledger) {
            let owner = StreamsOwner()
            let subject = PassthroughSubject<Int, Never>()
            let received = Mutex<[Int]>([])
            subject.sink(boundTo: owner.bag) { value in received.withLock { $0.append(value) } }
            subject.send(1)
            subject.send(2)
            #expect(received.withLock { $0 } == [1, 2])
            let entries = ledger.snapshotRearmingOnChange().owners.first?.entries
            #expect(entries?.map(\.kind) == [.subscription])
            #expect(entries?.first?.deliveries == 2)
            #expect(entries?.first?.bound == true)
        }
    }

    @Test func cancelsWhenTheOwnerDeinitializes() {
        let ledger = Ledger(clock: ManualClock())
        Ledger.$current.withValue(ledger) {
            let subject = PassthroughSubject<Int, Never>()
            let received = Mutex<[Int]>([])
            do {
                let owner = StreamsOwner()
                subject.sink(boundTo: owner.bag) { value in received.withLock { $0.append(value) } }
                subject.send(1)
            }
            subject.send(2)
            #expect(received.withLock { $0 } == [1])
            #expect(ledger.counters.subscriptions == 0)
            #expect(ledger.counters.zombies == 0)
        }
    }

    @Test func subscribesNothingWhenTheLifetimeHasEnded() {
        let ledger = Ledger(clock: ManualClock())
        Ledger.$current.withValue(ledger) {
            let lifetime = Lifetime()
            lifetime.end()
            let subject = CurrentValueSubject<Int, Never>(1)
            let received = Mutex<[Int]>([])
            subject.sink(boundTo: lifetime) { value in received.withLock { $0.append(value) } }
            #expect(received.withLock { $0 }.isEmpty)
            #expect(ledger.counters.subscriptions == 0)
        }
    }

    @Test func entryEndsWhenThePublisherFinishes() {
        let ledger = Ledger(clock: ManualClock())
        Ledger.$current.withValue(ledger) {
            let owner = StreamsOwner()
            Just(1).sink(boundTo: owner.bag) { _ in }
            #expect(ledger.counters.subscriptions == 0)
            withExtendedLifetime(owner) {}
        }
    }

    @Test func attributedSinkOutlivesItsOwnerAndCountsZombieDeliveries() {
        let clock = ManualClock()
        let ledger = Ledger(clock: clock)
        Ledger.$current.withValue(ledger) {
            let subject = PassthroughSubject<Int, Never>()
            let received = Mutex<[Int]>([])
            var leaked: AnyCancellable?
            do {
                let owner = StreamsOwner()
                leaked = subject.sink(attributedTo: owner.bag) { value in
                    received.withLock { $0.append(value) }
                }
                subject.send(1)
            }
            subject.send(2)
            subject.send(3)
            #expect(received.withLock { $0 } == [1, 2, 3])
            #expect(ledger.counters.zombies == 2)
            #expect(ledger.snapshotRearmingOnChange().owners.first?.entries.map(\.bound) == [false])
            leaked?.cancel()
            subject.send(4)
            #expect(received.withLock { $0 } == [1, 2, 3])
            #expect(ledger.counters.subscriptions == 0)
            clock.advance(by: ledger.gracePeriod)
            #expect(ledger.snapshotRearmingOnChange().leaks.isEmpty)
        }
    }

    @Test func attributedSinkEntryEndsWhenItsCancellableIsReleased() {
        let ledger = Ledger(clock: ManualClock())
        Ledger.$current.withValue(ledger) {
            let owner = StreamsOwner()
            let subject = PassthroughSubject<Int, Never>()
            do {
                let cancellable = subject.sink(attributedTo: owner.bag) { _ in }
                #expect(ledger.counters.subscriptions == 1)
                withExtendedLifetime(cancellable) {}
            }
            #expect(ledger.counters.subscriptions == 0)
        }
    }

    @Test func ownerEndingWhileValuesAreSentOnAnotherThreadStopsDeliveriesCleanly() {
        let ledger = Ledger(clock: ManualClock())
        Ledger.$current.withValue(ledger) {
            for _ in 0..<2_000 {
                let subject = PassthroughSubject<Int, Never>()
                let received = Mutex<[Int]>([])
                let owner = Mutex<StreamsOwner?>(StreamsOwner())
                let bag = owner.withLock { $0!.bag }
                subject.sink(boundTo: bag) { value in received.withLock { $0.append(value) } }
                let sendable = Slot(subject)
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 {
                        for value in 0..<20 { sendable.value!.send(value) }
                    } else {
                        bag.dispose()
                    }
                }
                let values = received.withLock { $0 }
                #expect(values == Array(0..<values.count))
                _ = owner.withLock { $0.take() }
            }
            #expect(ledger.counters.subscriptions == 0)
        }
    }
}

// MARK: - Support shared by the streams suites

/// Runs `body` with a ledger of its own (tests run in parallel; none records into `Ledger.shared`).
func withOwnLedger<R>(_ body: () throws -> R) rethrows -> R {
    try Ledger.$current.withValue(Ledger(clock: ManualClock()), operation: body)
}

/// Runs `body` with a ledger of its own.
func withOwnLedger<R>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R)
    async rethrows -> R
{
    try await Ledger.$current.withValue(Ledger(clock: ManualClock()), operation: body, isolation: isolation)
}

/// An owner in the ledger: tracks its bag, like a view model.
final class StreamsOwner: Sendable {
    let bag = DisposeBag()
    init() { bag.track(self) }
}

/// Something to watch deinitialize.
final class StreamsProbe: Sendable {}

/// What a subscriber saw, in order.
enum StreamsEvent<Value: Equatable & Sendable>: Equatable, Sendable {
    case subscribed
    case value(Value)
    case finished
}

/// A subscriber that records every signal; thread-safe.
final class StreamsRecorder<Value: Equatable & Sendable>: Subscriber, Sendable {
    typealias Input = Value
    typealias Failure = Never

    private let state: Mutex<[StreamsEvent<Value>]> = Mutex([])
    private let subscription = Slot<any Subscription>()

    var events: [StreamsEvent<Value>] { state.withLock { $0 } }

    func receive(subscription: any Subscription) {
        state.withLock { $0.append(.subscribed) }
        self.subscription.put(subscription)
        subscription.request(.unlimited)
    }

    func receive(_ input: Value) -> Subscribers.Demand {
        state.withLock { $0.append(.value(input)) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        state.withLock { $0.append(.finished) }
    }

    func cancel() { subscription.take()?.cancel() }
}
