import Testing

@testable import Tether

extension Adversarial {
    /// Owners' books reuse a settled owner's slot: what still names the settled owner (a queued
    /// verdict, a covered leak, a parent) is not taken for the owner in its place.
    @Suite struct OwnerSlotTests {
        /// The ledger reuses a settled owner's place for the next owner; a verdict still queued for
        /// the settled one, when it comes up, is not taken for the next one's.
        @Test func aSettledOwnersQueuedVerdictDoesNotJudgeTheOwnerInItsPlace() throws {
            let fixture = LedgerFixture()
            // Verdicts queued before and after the first's keep it in the middle of the queue.
            let (before, after) = fixture.run { (TrackedOwner(), TrackedOwner()) }
            var first: TrackedOwner? = fixture.run { TrackedOwner() }
            before.bag.dispose()
            first?.bag.dispose()
            after.bag.dispose()
            first = nil  // ended and released: settled now, its verdict left in the queue
            fixture.clock.advance(by: .milliseconds(100))
            let next = fixture.run { TrackedOwner() }
            next.bag.dispose()
            let ids = [before, after, next].map(\.bag.ownerID)
            fixture.clock.advance(by: .milliseconds(200))
            #expect(fixture.ledger.snapshotRearmingOnChange().leaks.map(\.owner) == Array(ids.prefix(2)))
            fixture.clock.advance(by: .milliseconds(100))
            #expect(fixture.ledger.snapshotRearmingOnChange().leaks.map(\.owner) == ids)
        }

        /// A child ended with its parent outlives it; the parent, gone, is forgotten and its slot goes
        /// to a later owner awaiting its verdict: the child's verdict must not take that owner for its
        /// parent (covered by it, the child would never be reported on its own).
        @Test func aChildIsNotCoveredByTheOwnerInItsForgottenParentsSlot() {
            let fixture = LedgerFixture()
            var parent: TrackedOwner? = fixture.run { TrackedOwner() }
            let child = fixture.run { TrackedChild(parent: parent!.bag) }
            parent?.bag.end()  // ends the child too
            let parentSlot = parent?.bag.ownerRecord?.slot
            parent = nil  // gone: settled and forgotten, its slot free
            fixture.clock.advance(by: .milliseconds(100))
            let next = fixture.run { TrackedOwner() }  // in the parent's slot
            #expect(next.bag.ownerRecord?.slot == parentSlot)
            next.bag.end()
            fixture.clock.advance(by: .milliseconds(200))  // the child's verdict
            let snapshot = fixture.ledger.snapshotRearmingOnChange()
            #expect(snapshot.leaks.map(\.owner) == [child.bag.ownerID])
            #expect(snapshot.leaks.first?.covered == [])
            fixture.clock.advance(by: .milliseconds(100))
            #expect(
                fixture.ledger.snapshotRearmingOnChange().leaks.map(\.owner) == [
                    child.bag.ownerID, next.bag.ownerID,
                ])
            #expect(fixture.ledger.counters.leaks == 2)
        }

        /// A covered child settles and a later owner takes its slot; when the parent's leak resolves,
        /// the owner in the child's slot is not uncovered in the child's place.
        @Test func aParentsLateReleaseLeavesTheOwnerInACoveredChildsSlotAlone() {
            let fixture = LedgerFixture()
            var parent: TrackedOwner? = fixture.run { TrackedOwner() }
            var child: TrackedChild? = fixture.run { TrackedChild(parent: parent!.bag) }
            parent?.bag.end()
            fixture.passGracePeriod()
            #expect(fixture.ledger.snapshotRearmingOnChange().leaks.map(\.covered.count) == [1])
            let childSlot = child?.bag.ownerRecord?.slot
            child = nil  // covered, gone: settled
            let next = fixture.run { TrackedOwner() }  // in the child's slot
            #expect(next.bag.ownerRecord?.slot == childSlot)
            next.bag.end()
            fixture.passGracePeriod()
            let nextID = next.bag.ownerID
            parent = nil  // released late: the leak it covered moves on
            let snapshot = fixture.ledger.snapshotRearmingOnChange()
            #expect(snapshot.leaks.map(\.owner) == [nextID])
            #expect(snapshot.counters.leaks == 1)
            #expect(snapshot.counters.ending == 0)
            _ = child
        }

        /// A second track is discarded and frees its slot; the owners made after it take the slots in
        /// turn, and the counts stay right.
        @Test func aDiscardedTrackFreesItsSlotForTheNext() {
            let fixture = LedgerFixture()
            let first = fixture.run { TrackedOwner() }
            first.bag.track(first)  // discarded
            #expect(fixture.ledger.counters.owners == 1)
            let others = fixture.run { (0..<3).map { _ in TrackedOwner() } }
            #expect(fixture.ledger.counters.owners == 4)
            for other in others { other.bag.end() }
            first.bag.end()
            fixture.passGracePeriod()
            #expect(fixture.ledger.counters.leaks == 4)
            #expect(Set(fixture.ledger.snapshotRearmingOnChange().leaks.map(\.owner)).count == 4)
        }
    }
}
