import Testing

@testable import Tether

/// The verdicts a ledger owes, driven through the queue's transitions alone.
@Suite struct VerdictQueueTests {
    let first = OwnerHandle(key: 1, slot: 0)
    let second = OwnerHandle(key: 2, slot: 1)

    @Test func verdictsFallDueInTheOrderOwnersEndedAtTheirDeadlines() {
        var queue = VerdictQueue()
        queue.enqueue(first, dueAt: .seconds(1))
        queue.enqueue(second, dueAt: .seconds(2))
        #expect(!queue.hasDue(at: .milliseconds(999)))
        #expect(queue.takeDue(at: .milliseconds(999)) == nil)
        #expect(queue.takeDue(at: .seconds(1)) == first)
        #expect(queue.takeDue(at: .seconds(1)) == nil, "the second is not due yet")
        #expect(queue.takeDue(at: .seconds(5)) == second)
        #expect(queue.takeDue(at: .seconds(5)) == nil)
    }

    @Test func oneTimerIsArmedForTheFirstDeadlineUntilItFires() {
        var queue = VerdictQueue()
        queue.enqueue(first, dueAt: .seconds(1))
        queue.enqueue(second, dueAt: .seconds(2))
        #expect(queue.armTimer { _ in true } == .seconds(1))
        #expect(queue.timerArmed)
        #expect(queue.armTimer { _ in true } == nil, "one armed already")
        queue.timerFired()
        #expect(queue.armTimer { _ in true } == .seconds(1))
    }

    @Test func noTimerIsArmedForOwnersThatNoLongerAwaitTheirVerdict() {
        var queue = VerdictQueue()
        queue.enqueue(first, dueAt: .seconds(1))
        queue.enqueue(second, dueAt: .seconds(2))
        #expect(queue.nextDeadline { $0 == second } == .seconds(2))
        #expect(queue.armTimer { $0 == second } == .seconds(2), "the first settled meanwhile")
        #expect(queue.takeDue(at: .seconds(1)) == nil, "dropped as the timer was armed")
        queue.timerFired()
        #expect(queue.armTimer { _ in false } == nil)
        #expect(queue.nextDeadline { _ in true } == nil, "nothing left")
    }

    @Test func anEndHalfRecordedHoldsEveryVerdict() {
        var queue = VerdictQueue()
        queue.enqueue(first, dueAt: .seconds(1))
        queue.beginEnd()
        queue.beginEnd()
        #expect(!queue.hasDue(at: .seconds(9)))
        #expect(queue.takeDue(at: .seconds(9)) == nil)
        #expect(queue.armTimer { _ in true } == nil)
        queue.finishEnd()
        #expect(queue.takeDue(at: .seconds(9)) == nil, "one end is still half recorded")
        queue.finishEnd()
        #expect(queue.armTimer { _ in true } == .seconds(1))
        #expect(queue.takeDue(at: .seconds(9)) == first)
    }

    /// An owner released as it ended is the last one queued: its verdict goes at once. One further
    /// up stays, to be skipped when it comes up.
    @Test func forgettingAnOwnerDropsItsVerdictWhenItWasTheLastQueued() {
        var queue = VerdictQueue()
        queue.enqueue(first, dueAt: .seconds(1))
        queue.enqueue(second, dueAt: .seconds(2))
        queue.forget(first)
        queue.forget(second)
        #expect(queue.takeDue(at: .seconds(5)) == first, "not the last when forgotten: left for its turn")
        #expect(queue.takeDue(at: .seconds(5)) == nil, "the last: gone")
    }
}
