import Testing

@testable import Tether

@Suite struct AsyncSinkStateMachineTests {
    private func started(_ action: AsyncSinkStateMachine<Int>.ReceiveAction) -> (id: UInt64, value: Int)? {
        if case .start(let id, let value, _) = action { return (id, value) }
        return nil
    }

    /// What a `.latest` value cancels.
    private func cancelling(_ action: AsyncSinkStateMachine<Int>.ReceiveAction) -> [Int] {
        if case .start(_, _, let cancelling) = action { return cancelling }
        return []
    }

    @Test func concurrentStartsEveryValueThroughTheSamePathAsTheOthers() {
        var machine = AsyncSinkStateMachine<Int>(overlap: .concurrent)
        let bodies = (1...3).compactMap { started(machine.received($0)) }
        #expect(bodies.map(\.value) == [1, 2, 3])
        #expect(Set(bodies.map(\.id)).count == 3)
        #expect(machine.runningCount == 3, "a body is in the books from the decision on")
        for body in bodies {
            let next = machine.finished(id: body.id)
            #expect(next == nil)
        }
        #expect(machine.runningCount == 0)
    }

    @Test func serialQueuesValuesAndStartsTheNextWhenABodyFinishes() {
        var machine = AsyncSinkStateMachine<Int>(overlap: .serial)
        let first = started(machine.received(1))
        #expect(first?.value == 1)
        let queued = [machine.received(2), machine.received(3)].compactMap(started)
        #expect(queued.isEmpty)
        let second = machine.finished(id: first!.id)
        #expect(second?.body == 2)
        let third = machine.finished(id: second!.id)
        #expect(third?.body == 3)
    }

    @Test func serialDropsWaitingValuesWhenCancelled() {
        var machine = AsyncSinkStateMachine<Int>(overlap: .serial)
        let first = started(machine.received(1))!
        _ = machine.received(2)
        let cancelled = machine.cancel()
        #expect(cancelled.running == [1], "the started body")
        #expect(Array(cancelled.dropped) == [2], "the waiting value, handed out to release after unlocking")
        let next = machine.finished(id: first.id)
        #expect(next == nil)
        let late = started(machine.received(4))
        #expect(late == nil)
    }

    @Test func cancelReachesEveryBookedBodyAndNoneStartsAfter() {
        var machine = AsyncSinkStateMachine<Int>(overlap: .concurrent)
        _ = started(machine.received(1))!
        _ = started(machine.received(2))!
        let cancelled = machine.cancel()
        #expect(Set(cancelled.running) == [1, 2], "running or still starting, every body is cancelled")
        #expect(machine.cancel().running.isEmpty, "a second cancel has nothing left to cancel")
        let late = started(machine.received(3))
        #expect(late == nil)
        #expect(machine.runningCount == 0)
    }

    @Test func latestKeepsAReplacedBodyInTheBooksUntilItReturns() {
        var machine = AsyncSinkStateMachine<Int>(overlap: .latest)
        let first = started(machine.received(1))!
        let second = machine.received(2)
        #expect(cancelling(second) == [1])
        #expect(machine.runningCount == 2, "the replaced body is still there")
        let third = machine.received(3)
        #expect(cancelling(third) == [2], "a replaced body is cancelled once")
        let cancelled = machine.cancel()
        #expect(Set(cancelled.running) == [1, 2, 3], "a cancel of the sink reaches the replaced bodies too")
        _ = machine.finished(id: first.id)
        #expect(machine.runningCount == 0)
    }

    @Test func finishedBodiesLeaveTheBooks() {
        var machine = AsyncSinkStateMachine<Int>(overlap: .concurrent)
        for value in 0..<100 {
            let body = started(machine.received(value))!
            _ = machine.finished(id: body.id)
        }
        #expect(machine.runningCount == 0)
    }

    @Test func dropWhileBusyDropsUntilTheBodyFinishes() {
        var machine = AsyncSinkStateMachine<Int>(overlap: .dropWhileBusy)
        let first = started(machine.received(1))!
        let dropped = started(machine.received(2))
        #expect(dropped == nil)
        _ = machine.finished(id: first.id)
        let third = started(machine.received(3))
        #expect(third?.value == 3)
    }

    @Test func anIDThatLeftTheBooksNeverMatchesALaterBody() {
        var machine = AsyncSinkStateMachine<Int>(overlap: .dropWhileBusy)
        let first = started(machine.received(1))!
        _ = machine.finished(id: first.id)
        let second = started(machine.received(2))!
        #expect(second.id != first.id)
        _ = machine.finished(id: first.id)  // stale: must not take the second body out
        #expect(machine.runningCount == 1)
        #expect(machine.cancel().running == [2])
    }
}
