import Testing

@testable import Tether

@Suite struct AsyncSinkStateMachineTests {
    private func started(_ action: AsyncSinkStateMachine<Int>.ReceiveAction) -> (id: UInt64, value: Int)? {
        if case .start(let id, let value, _) = action { return (id, value) }
        return nil
    }

    @Test func serialQueuesValuesAndStartsTheNextWhenABodyFinishes() {
        var machine = AsyncSinkStateMachine<Int>(overlap: .serial)
        let first = started(machine.received(1))
        #expect(first?.value == 1)
        let queued = [machine.received(2), machine.received(3)].compactMap(started)
        #expect(queued.isEmpty)
        let second = machine.finished(id: first!.id)
        #expect(second?.value == 2)
        let third = machine.finished(id: second!.id)
        #expect(third?.value == 3)
    }

    @Test func serialDropsWaitingValuesWhenCancelled() {
        var machine = AsyncSinkStateMachine<Int>(overlap: .serial)
        let first = started(machine.received(1))!
        _ = machine.received(2)
        _ = machine.cancel()
        let next = machine.finished(id: first.id)
        #expect(next == nil)
        let late = started(machine.received(4))
        #expect(late == nil)
    }

    @Test func noConcurrentBodyStartsAfterCancel() {
        var machine = AsyncSinkStateMachine<Int>(overlap: .concurrent)
        let first = machine.startedConcurrentBody(task: Task {}, entry: nil)
        #expect(first != nil)
        let running = machine.cancel()
        #expect(running.count == 1)
        #expect(machine.startedConcurrentBody(task: Task {}, entry: nil) == nil)
        #expect(machine.runningCount == 0)
    }

    @Test func latestReplacesAStartingBody() {
        var machine = AsyncSinkStateMachine<Int>(overlap: .latest)
        let first = started(machine.received(1))!
        let second = started(machine.received(2))!
        let firstRegistered = machine.registered(id: first.id, task: Task {}, entry: nil)
        let secondRegistered = machine.registered(id: second.id, task: Task {}, entry: nil)
        #expect(!firstRegistered)
        #expect(secondRegistered)
        #expect(machine.runningCount == 1)
    }

    @Test func finishedBodiesLeaveTheBooks() {
        var machine = AsyncSinkStateMachine<Int>(overlap: .concurrent)
        for _ in 0..<100 {
            let body = machine.startedConcurrentBody(task: Task {}, entry: nil)!
            _ = machine.finished(id: body)
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

    @Test func anIDThatLeftTheBooksDoesNotMatchTheBodyReusingItsSlot() {
        var machine = AsyncSinkStateMachine<Int>(overlap: .dropWhileBusy)
        let first = started(machine.received(1))!
        _ = machine.finished(id: first.id)
        let second = started(machine.received(2))!
        #expect(second.id != first.id)
        _ = machine.finished(id: first.id)  // stale: must not free the second body's slot
        #expect(machine.runningCount == 1)
        let staleRegistered = machine.registered(id: first.id, task: Task {}, entry: nil)
        let secondRegistered = machine.registered(id: second.id, task: Task {}, entry: nil)
        #expect(!staleRegistered)
        #expect(secondRegistered)
    }

    @Test func aConcurrentIDThatLeftTheBooksFreesNothing() {
        var machine = AsyncSinkStateMachine<Int>(overlap: .concurrent)
        let first = machine.startedConcurrentBody(task: Task {}, entry: nil)!
        _ = machine.finished(id: first)
        let second = machine.startedConcurrentBody(task: Task {}, entry: nil)!
        #expect(second != first)
        _ = machine.finished(id: first)
        #expect(machine.runningCount == 1)
        _ = machine.finished(id: second)
        #expect(machine.runningCount == 0)
    }
}
