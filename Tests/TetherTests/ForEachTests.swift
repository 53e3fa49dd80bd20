import Foundation
import Observation
import TestSupport
import Testing
import Tether

private let moved = Notification.Name("ForEachTests.moved")

/// The error a throwing sequence ends with.
private struct Jammed: Error, CustomStringConvertible {
    var description: String { "Jammed" }
}

/// A sequence with a typed failure: its elements, then `Jammed`.
private struct JammingSequence: AsyncSequence, Sendable {
    typealias Failure = Jammed
    let elements: [Int]

    struct AsyncIterator: AsyncIteratorProtocol {
        typealias Failure = Jammed
        var rest: [Int]

        mutating func next() async throws(Jammed) -> Int? {
            guard !rest.isEmpty else { throw Jammed() }
            return rest.removeFirst()
        }

        mutating func next(isolation actor: isolated (any Actor)?) async throws(Jammed) -> Int? {
            try await next()
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(rest: elements) }
}

/// A model on Swift's Observation, mutated by the tests on the main actor.
@MainActor @Observable
private final class Compass {
    var heading = 0
}

/// An owner as users write one: a `[weak self]` body, so its loop does not keep it.
private final class Follower: Sendable {
    let bag = DisposeBag()
    let heard: AsyncStream<Int>.Continuation

    init(_ values: AsyncStream<Int>, heard: AsyncStream<Int>.Continuation) {
        self.heard = heard
        bag.track(self)
        values.forEach(boundTo: bag) { [weak self] in self?.heard.yield($0) }
    }
}

/// What the loop's body tells the test, in order, so the test can wait for it without a clock.
private struct Heard {
    let stream: AsyncStream<Int>
    let continuation: AsyncStream<Int>.Continuation
    private var iterator: AsyncStream<Int>.Iterator

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        iterator = stream.makeAsyncIterator()
    }

    mutating func next() async -> Int? { await iterator.next() }
}

@Suite struct ForEachTests {
    @Test func eachElementIsHandedToTheBodyAndCountedOnTheLoopsEntry() async {
        let fixture = LedgerFixture()
        let (values, feed) = AsyncStream.makeStream(of: Int.self)
        var heard = Heard()
        let owner = fixture.run { StreamsOwner() }
        let line = #line + 1
        let task = values.forEach(boundTo: owner.bag) { [heard = heard.continuation] in heard.yield($0) }
        feed.yield(1)
        feed.yield(2)
        #expect(await heard.next() == 1)
        #expect(await heard.next() == 2)
        let entry = fixture.ledger.snapshotRearmingOnChange().owners.first?.entries.first
        #expect(entry?.kind == .task)
        #expect(entry?.bound == true)
        #expect(entry?.owner?.description == "StreamsOwner#1")
        #expect(entry?.site.description == "ForEachTests.swift:\(line)")
        #expect(entry?.deliveries == 2)
        owner.bag.end()
        await task.value
        #expect(fixture.ledger.counters.tasks == 0)
        #expect(fixture.ledger.counters.zombies == 0)
        #expect(
            fixture.ledger.snapshotRearmingOnChange().events.last?.summary
                == "cancelled task StreamsOwner#1 ForEachTests.swift:\(line)")
    }

    /// The unwrap inside the loop: the body holds its owner only while it runs, so the owner goes
    /// when its last reference does, and its end stops the loop. Nothing leaks.
    @Test func aWeakBodyLetsItsOwnerGoAndTheOwnersEndStopsTheLoop() async {
        let fixture = LedgerFixture()
        let (values, feed) = AsyncStream.makeStream(of: Int.self)
        var heard = Heard()
        var follower: Follower? = fixture.run { Follower(values, heard: heard.continuation) }
        feed.yield(1)
        #expect(await heard.next() == 1)
        weak let gone = follower
        follower = nil
        #expect(gone == nil, "the loop does not keep its owner")
        await waitUntil("the loop to end") { fixture.ledger.counters.tasks == 0 }
        feed.yield(2)
        feed.finish()
        heard.continuation.finish()
        #expect(await heard.next() == nil, "nothing reaches the body after its owner's end")
        fixture.passGracePeriod()
        #expect(fixture.ledger.snapshotRearmingOnChange().leaks.isEmpty)
        #expect(fixture.ledger.counters.zombies == 0)
    }

    @Test func onAnEndedLifetimeTheBodyNeverRuns() async {
        let fixture = LedgerFixture()
        let owner = fixture.run { StreamsOwner() }
        owner.bag.end()
        let (values, feed) = AsyncStream.makeStream(of: Int.self)
        let ran = Recorder<Int>()
        let task = values.forEach(boundTo: owner.bag) { ran.record($0) }
        feed.yield(1)
        feed.finish()
        await task.value
        #expect(ran.events.isEmpty)
        #expect(fixture.ledger.counters.tasks == 0)
        #expect(
            fixture.ledger.snapshotRearmingOnChange().events.suffix(2).map(\.kind) == [.created, .cancelled])
    }

    @Test func aSequenceThatFinishesByItselfEndsTheEntryAndLeavesTheLifetime() async {
        let fixture = LedgerFixture()
        let owner = fixture.run { StreamsOwner() }
        let (values, feed) = AsyncStream.makeStream(of: Int.self)
        let ran = Recorder<Int>()
        let task = values.forEach(boundTo: owner.bag) { ran.record($0) }
        feed.yield(1)
        feed.finish()
        await task.value
        #expect(ran.events == [1])
        #expect(fixture.ledger.counters.tasks == 0)
        let end = fixture.ledger.snapshotRearmingOnChange().events.last
        #expect(end?.kind == .ended)
        #expect(end?.message == nil)
        let events = fixture.ledger.snapshotRearmingOnChange().events.count
        owner.bag.end()
        #expect(
            fixture.ledger.snapshotRearmingOnChange().events.dropFirst(events).map(\.kind) == [.ownerEnded],
            "the lifetime no longer holds the finished loop: its end cancels nothing")
        #expect(owner.bag.isEnded)
    }

    @Test func aThrowingSequenceEndsTheLoopAndItsEntryWithTheError() async {
        let fixture = LedgerFixture()
        let owner = fixture.run { StreamsOwner() }
        let ran = Recorder<Int>()
        let line = #line + 1
        let task = JammingSequence(elements: [1, 2]).forEach(boundTo: owner.bag) { ran.record($0) }
        await task.value
        #expect(ran.events == [1, 2])
        #expect(fixture.ledger.counters.tasks == 0)
        let end = fixture.ledger.snapshotRearmingOnChange().events.last
        #expect(end?.kind == .ended)
        #expect(end?.message == "threw Jammed")
        #expect(end?.summary == "ended task StreamsOwner#1 threw Jammed ForEachTests.swift:\(line)")
    }

    @Test func anAsyncThrowingStreamsErrorEndsTheLoopToo() async {
        let fixture = LedgerFixture()
        let owner = fixture.run { StreamsOwner() }
        let (values, feed) = AsyncThrowingStream.makeStream(of: Int.self)
        let ran = Recorder<Int>()
        let task = values.forEach(boundTo: owner.bag) { ran.record($0) }
        feed.yield(7)
        feed.finish(throwing: Jammed())
        await task.value
        #expect(ran.events == [7])
        #expect(fixture.ledger.snapshotRearmingOnChange().events.last?.message == "threw Jammed")
    }

    /// Tether's own sequence counts what it hands a task of its own; through `forEach` each
    /// notification counts once, not twice.
    @Test func tetherNotificationsCountOnceEach() async {
        let fixture = LedgerFixture()
        let center = NotificationCenter()
        var heard = Heard()
        let owner = fixture.run { StreamsOwner() }
        let task = center.tetherNotifications(named: moved) { _ in 1 }
            .forEach(boundTo: owner.bag) { [heard = heard.continuation] in heard.yield($0) }
        center.post(name: moved, object: nil)
        center.post(name: moved, object: nil)
        #expect(await heard.next() == 1)
        #expect(await heard.next() == 1)
        #expect(fixture.ledger.snapshotRearmingOnChange().owners.first?.entries.first?.deliveries == 2)
        owner.bag.end()
        await task.value
        center.post(name: moved, object: nil)
        #expect(fixture.ledger.counters.zombies == 0)
        #expect(fixture.ledger.counters.tasks == 0)
    }
}

/// `Observations`, the sequence an `@Observable` model is watched with: the test mutates the
/// model, the loop hears each change (the change, not a clock, is what the test waits for).
@MainActor @Suite struct ForEachObservationsTests {
    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test func eachChangeOfTheModelIsHandedToTheBodyOnTheMainActor() async {
        let fixture = LedgerFixture()
        let compass = Compass()
        var heard = Heard()
        let owner = fixture.run { StreamsOwner() }
        let task = Observations { compass.heading }
            .forEach(boundTo: owner.bag) { [heard = heard.continuation] heading in
                MainActor.assertIsolated()
                heard.yield(heading)
            }
        #expect(await heard.next() == 0, "the value now, first")
        compass.heading = 90
        #expect(await heard.next() == 90)
        compass.heading = 180
        #expect(await heard.next() == 180)
        #expect(fixture.ledger.snapshotRearmingOnChange().owners.first?.entries.first?.deliveries == 3)
        owner.bag.end()
        await task.value
        compass.heading = 270
        #expect(fixture.ledger.counters.tasks == 0)
        #expect(fixture.ledger.counters.zombies == 0)
    }
}
