import Observation
import Synchronization
import TestSupport
import Testing
import Tether

/// `forEach(boundTo:)` against the ends of its lifetime: an end racing the sequence's next
/// element, an element the sequence makes between the owner's end and the loop's cancel, and
/// eight threads changing an `@Observable` model while the lifetimes of the loops that watch it
/// end.
extension Adversarial {
    @Suite struct SequenceRaceTests {
        static let count = 64

        /// One thread yields 1, 2, 3… while another ends the loop's lifetime: the body gets a
        /// prefix, nothing yielded after the end returned, and each element it gets was counted
        /// just before it, never after (the count the body sees is its place).
        @Test func anEndRacingTheNextElementCountsNothingAfterIt() async {
            let fixture = LedgerFixture()
            for round in 0..<raceRounds {
                let (values, feed) = AsyncStream.makeStream(of: Int.self)
                let sender = Sender()
                let owner = fixture.run { Slot(StreamsOwner()) }
                let bag = owner.value!.bag
                let id = bag.ownerID
                let ledger = fixture.ledger
                let received = Recorder<(value: Int, counted: Int?)>()
                let task = values.forEach(boundTo: bag) { value in
                    let book = ledger.snapshotRearmingOnChange().owners.first { $0.id == id }
                    received.record((value, book?.entries.first?.deliveries))
                }
                let cut = Recorder<Cutoff>()
                await onThreads([
                    { sender.send(Self.count) { feed.yield($0) } },
                    {
                        sender.wait(until: cutPoint(round, of: Self.count))
                        cut.record(Sender.cut([sender], around: bag.end)[0])
                    },
                ])
                feed.finish()
                await task.value
                let got = received.events
                let upper = cut.events.first?.upper ?? 0
                #expect(got.map(\.value) == Array(0..<got.count).map { $0 + 1 }, "round \(round): in order")
                #expect(got.count <= upper, "round \(round): nothing yielded after the end")
                #expect(
                    got.map(\.counted) == Array(0..<got.count).map { $0 + 1 },
                    "round \(round): each counted as it was handed on")
                owner.take()
            }
            #expect(fixture.ledger.counters.zombies == 0)
            #expect(fixture.ledger.counters.entries == 0)
            #expect(fixture.ledger.counters.owners == 0)
        }

        /// The lifetime ends its owner, runs its last-added action — which makes the sequence
        /// produce an element and waits until the loop has it — and only then cancels the loop's
        /// task. The loop sees the owner has ended: the element is not handed on, nor counted.
        @Test func anElementMadeBetweenTheOwnersEndAndTheCancelIsNotHandedOn() async {
            let fixture = LedgerFixture()
            let (values, feed) = AsyncStream.makeStream(of: Int.self)
            let produced = Recorder<Int>()
            let sequence = Announcing(values, produced: produced)
            let owner = fixture.run { StreamsOwner() }
            let ran = Recorder<Int>()
            let task = sequence.forEach(boundTo: owner.bag) { ran.record($0) }
            feed.yield(1)
            await waitUntil("the first element to reach the body") { ran.events == [1] }
            owner.bag.onEnd {
                feed.yield(2)
                waitUntil("the loop to take the element") { produced.events == [1, 2] }
            }
            await onThreads([{ owner.bag.end() }])
            await task.value
            #expect(ran.events == [1])
            #expect(fixture.ledger.counters.tasks == 0)
            #expect(fixture.ledger.counters.zombies == 0)
        }

        /// Eight threads: four change one `@Observable` model while four end, each at its own point,
        /// the lifetimes of the loops watching it; every loop stops, nothing is left, no zombie.
        @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
        @Test func eightThreadsChangeAnObservableModelWhileLoopsEnd() async {
            let fixture = LedgerFixture()
            for round in 0..<raceRounds {
                let gauge = Gauge()
                let senders = (0..<4).map { _ in Sender() }
                let owners = (0..<4).map { _ in fixture.run { Slot(StreamsOwner()) } }
                let bags = owners.map { $0.value!.bag }
                let heard = (0..<4).map { _ in Recorder<Int>() }
                let tasks = (0..<4).map { index in
                    Observations { gauge.reading }.forEach(boundTo: bags[index]) { heard[index].record($0) }
                }
                var threads: [@Sendable () -> Void] = (0..<4).map { index in
                    { senders[index].send(Self.count) { gauge.reading = $0 } }
                }
                for index in 0..<4 {
                    threads.append {
                        senders[index].wait(until: cutPoint(round, of: Self.count, salt: index))
                        bags[index].end()
                    }
                }
                await onThreads(threads)
                for task in tasks { await task.value }
                for (index, values) in heard.enumerated() {
                    #expect(
                        values.events.allSatisfy { (0...Self.count).contains($0) },
                        "round \(round), loop \(index): only values the model held")
                }
                for owner in owners { owner.take() }
            }
            #expect(fixture.ledger.counters.zombies == 0)
            #expect(fixture.ledger.counters.entries == 0)
            #expect(fixture.ledger.counters.owners == 0)
        }
    }
}

/// A model on Swift's Observation that any thread may change: its value behind a lock, its
/// accesses and mutations told to the macro's registrar.
@Observable
private final class Gauge: Sendable {
    @ObservationIgnored private let storage = Mutex(0)

    var reading: Int {
        get {
            access(keyPath: \.reading)
            return storage.withLock { $0 }
        }
        set {
            withMutation(keyPath: \.reading) { storage.withLock { $0 = newValue } }
        }
    }
}

/// An `AsyncStream` that records each element as its loop takes it, before the loop sees it.
private struct Announcing: AsyncSequence, Sendable {
    let base: AsyncStream<Int>
    let produced: Recorder<Int>

    init(_ base: AsyncStream<Int>, produced: Recorder<Int>) {
        self.base = base
        self.produced = produced
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<Int>.Iterator
        let produced: Recorder<Int>

        mutating func next() async -> Int? {
            guard let element = await base.next() else { return nil }
            produced.record(element)
            return element
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), produced: produced)
    }
}
