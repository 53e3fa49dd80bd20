import Testing

@testable import Tether

/// An owner that something else keeps: once its bag ends and the grace period passes, it leaks.
private final class Kept {
    let bag = DisposeBag()
    init() { bag.track(self) }
}

/// Another type of owner kept the same way: its leaks are a group of their own.
private final class AlsoKept {
    let bag = DisposeBag()
    init() { bag.track(self) }
}

/// A living owner with a subscription of its own.
private final class Subscribed {
    let bag = DisposeBag()
    init() {
        bag.track(self)
        PassthroughSubject<Int, Never>().sink { _ in }.store(boundTo: bag)
    }
}

/// A ledger's head is its snapshot cut short: of each owner state the oldest owners, of each leak
/// group the first leak with the group's count, and everything else as the snapshot has it.
@Suite struct LedgerHeadTests {
    /// A ledger with leaks of two groups found in turns, owners ended and awaiting their verdict,
    /// and living owners with entries; and what keeps them.
    private func crowdedLedger() -> (LedgerFixture, [AnyObject]) {
        let fixture = LedgerFixture()
        var kept: [AnyObject] = []
        for _ in 0..<5 {
            let first = fixture.run { Kept() }
            let second = fixture.run { AlsoKept() }
            first.bag.end()
            second.bag.end()
            fixture.passGracePeriod()
            kept += [first, second]
        }
        for _ in 0..<3 {
            let ended = fixture.run { Kept() }
            ended.bag.end()
            kept.append(ended)
        }
        for _ in 0..<4 { kept.append(fixture.run { Subscribed() }) }
        return (fixture, kept)
    }

    @Test func aHeadKeepsTheOldestOwnersOfEachStateAndCountsTheRest() {
        let (fixture, kept) = crowdedLedger()
        let snapshot = fixture.ledger.snapshotRearmingOnChange()
        let head = fixture.ledger.headRearmingOnChange(limit: 2)
        var seen: [LedgerSnapshot.Owner.State: Int] = [:]
        let oldest = snapshot.owners.filter { owner in
            seen[owner.state, default: 0] += 1
            return seen[owner.state, default: 0] <= 2
        }
        #expect(snapshot.owners.count == 17)
        #expect(oldest.map(\.state) == [.leaked, .leaked, .ended, .ended, .alive, .alive])
        #expect(head.owners == oldest)
        #expect(head.ownerCount == 17)
        #expect(head.ownerEntryCount == snapshot.owners.map(\.entries.count).reduce(0, +))
        #expect(head.ownerEntryCount == 4)
        #expect(head.time == snapshot.time)
        #expect(head.counters == snapshot.counters)
        #expect(head.unowned == snapshot.unowned)
        #expect(head.growth == snapshot.growth)
        #expect(head.events == snapshot.events)
        withExtendedLifetime(kept) {}
    }

    @Test func aHeadGroupsTheLeaksAsTheSnapshotDoesWithTheFirstOfEachGroup() {
        let (fixture, kept) = crowdedLedger()
        let snapshot = fixture.ledger.snapshotRearmingOnChange()
        let head = fixture.ledger.headRearmingOnChange(limit: 2)
        #expect(snapshot.leakGroups.map(\.count) == [5, 5])
        #expect(head.leakGroups.map(\.count) == snapshot.leakGroups.map(\.count))
        #expect(head.leakGroups.map(\.signature) == snapshot.leakGroups.map(\.signature))
        #expect(head.leakGroups.map(\.first) == snapshot.leakGroups.compactMap(\.leaks.first))
        #expect(head.leakGroups.map(\.first.owner.description) == ["Kept#1", "AlsoKept#1"])
        withExtendedLifetime(kept) {}
    }

    @Test func aGroupWhoseFirstLeakGoesIsHeadedByTheNext() {
        var (fixture, kept) = crowdedLedger()
        kept.removeFirst()  // Kept#1, released late: its leak goes
        kept.removeFirst()  // AlsoKept#1
        kept.remove(at: 3)  // AlsoKept#3
        let snapshot = fixture.ledger.snapshotRearmingOnChange()
        let head = fixture.ledger.headRearmingOnChange(limit: 2)
        #expect(snapshot.leakGroups.map(\.count) == [4, 3])
        #expect(head.leakGroups.map(\.count) == [4, 3])
        #expect(head.leakGroups.map(\.first) == snapshot.leakGroups.compactMap(\.leaks.first))
        #expect(head.leakGroups.map(\.first.owner.description) == ["Kept#2", "AlsoKept#2"])
        kept.removeAll()
        let gone = fixture.ledger.headRearmingOnChange(limit: 2)
        #expect(gone.leakGroups.isEmpty && fixture.ledger.snapshotRearmingOnChange().leaks.isEmpty)
    }

    @Test func aLimitAsLargeAsTheLedgerKeepsEveryOwnerAndNoneKeepsNone() {
        let (fixture, kept) = crowdedLedger()
        let snapshot = fixture.ledger.snapshotRearmingOnChange()
        #expect(fixture.ledger.headRearmingOnChange(limit: 100).owners == snapshot.owners)
        let none = fixture.ledger.headRearmingOnChange(limit: 0)
        #expect(none.owners.isEmpty)
        #expect(none.ownerCount == 17 && none.ownerEntryCount == 4)
        #expect(none.leakGroups.map(\.count) == [5, 5], "the leaks are not cut by the limit")
        withExtendedLifetime(kept) {}
    }

    @Test func takingAHeadRearmsChangeHandlersAsASnapshotDoes() {
        let fixture = LedgerFixture()
        let calls = Recorder<Int>()
        let watch = fixture.ledger.onChange { calls.record(1) }
        fixture.ledger.note("first")
        fixture.ledger.note("second")
        #expect(calls.events.count == 1, "told once until the ledger is read")
        _ = fixture.ledger.headRearmingOnChange(limit: 1)
        fixture.ledger.note("third")
        #expect(calls.events.count == 2, "the head re-armed the handler")
        watch.cancel()
    }
}
