import Synchronization
import TestSupport
import Testing
import Tether

/// What a body did, in order.
private enum Step: Hashable, Sendable {
    case started(Int)
    case returned(Int)
    case cancelled(Int)
}

/// A body that reports its steps and waits on `clock` (never advanced unless the test says so);
/// a cancelled wait reports `cancelled`.
private func body(
    _ clock: ManualClock, _ log: AsyncStream<Step>.Continuation, wait: Duration = .seconds(1)
) -> @Sendable (Int) async -> Void {
    { value in
        log.yield(.started(value))
        do {
            try await clock.sleep(for: wait)
            log.yield(.returned(value))
        } catch {
            log.yield(.cancelled(value))
        }
    }
}

private func next(_ count: Int, of steps: inout AsyncStream<Step>.Iterator) async -> [Step] {
    var taken: [Step] = []
    while taken.count < count, let step = await steps.next() { taken.append(step) }
    return taken
}

@Suite struct AsyncSinkTests {
    @Test func cancellingCancelsEveryRunningBodyNotOnlyTheLast() async {
        let ledger = Ledger(clock: ManualClock())
        await Ledger.$current.withValue(ledger) {
            let clock = ManualClock()
            let (log, logger) = AsyncStream.makeStream(of: Step.self)
            var steps = log.makeAsyncIterator()
            let subject = PassthroughSubject<Int, Never>()
            let cancellable = subject.asyncSink(receiveValue: body(clock, logger))
            for value in 1...3 { subject.send(value) }
            let started = await next(3, of: &steps)
            #expect(Set(started) == [.started(1), .started(2), .started(3)])
            #expect(ledger.counters.tasks == 3)
            cancellable.cancel()
            #expect(ledger.counters.tasks == 0)
            let ended = await next(3, of: &steps)
            #expect(Set(ended) == [.cancelled(1), .cancelled(2), .cancelled(3)])
        }
    }

    @Test func endingTheLifetimeItIsStoredInCancelsEveryBody() async {
        let ledger = Ledger(clock: ManualClock())
        await Ledger.$current.withValue(ledger) {
            let clock = ManualClock()
            let (log, logger) = AsyncStream.makeStream(of: Step.self)
            var steps = log.makeAsyncIterator()
            let subject = PassthroughSubject<Int, Never>()
            do {
                let owner = StreamsOwner()
                subject.asyncSink(receiveValue: body(clock, logger)).store(boundTo: owner.bag)
                subject.send(1)
                subject.send(2)
                _ = await next(2, of: &steps)
            }
            let ended = await next(2, of: &steps)
            #expect(Set(ended) == [.cancelled(1), .cancelled(2)])
            subject.send(3)
            #expect(ledger.counters.tasks == 0)
        }
    }

    @Test func finishedBodiesAreNotKept() async {
        let ledger = Ledger(clock: ManualClock())
        await Ledger.$current.withValue(ledger) {
            let (log, logger) = AsyncStream.makeStream(of: Int.self)
            var done = log.makeAsyncIterator()
            let subject = PassthroughSubject<Int, Never>()
            let cancellable = subject.asyncSink { value in logger.yield(value) }
            for value in 0..<500 { subject.send(value) }
            for _ in 0..<500 { _ = await done.next() }
            // A body's entry ends just after it yields: wait for the ledger to settle.
            await waitUntil { ledger.counters.tasks == 0 }
            #expect(ledger.counters.tasks == 0)
            withExtendedLifetime(cancellable) {}
        }
    }

    @Test func serialRunsOneBodyAtATimeInOrder() async {
        await withOwnLedger {
            let clock = ManualClock()
            let (log, logger) = AsyncStream.makeStream(of: Step.self)
            var steps = log.makeAsyncIterator()
            let subject = PassthroughSubject<Int, Never>()
            let cancellable = subject.asyncSink(
                overlap: .serial, receiveValue: body(clock, logger, wait: .zero))
            for value in 1...3 { subject.send(value) }
            let history = await next(6, of: &steps)
            #expect(
                history == [.started(1), .returned(1), .started(2), .returned(2), .started(3), .returned(3)])
            withExtendedLifetime(cancellable) {}
        }
    }

    @Test func serialDropsWaitingValuesWhenCancelled() async {
        await withOwnLedger {
            let clock = ManualClock()
            let (log, logger) = AsyncStream.makeStream(of: Step.self)
            var steps = log.makeAsyncIterator()
            let subject = PassthroughSubject<Int, Never>()
            let cancellable = subject.asyncSink(overlap: .serial, receiveValue: body(clock, logger))
            for value in 1...3 { subject.send(value) }
            #expect(await steps.next() == .started(1))
            cancellable.cancel()
            #expect(await steps.next() == .cancelled(1))
            // That 2 and 3 never start is proved on the state machine (AsyncSinkStateMachineTests).
        }
    }

    @Test func latestCancelsTheRunningBodyWhenANewValueArrives() async {
        await withOwnLedger {
            let clock = ManualClock()
            let (log, logger) = AsyncStream.makeStream(of: Step.self)
            var steps = log.makeAsyncIterator()
            let subject = PassthroughSubject<Int, Never>()
            let cancellable = subject.asyncSink(overlap: .latest, receiveValue: body(clock, logger))
            subject.send(1)
            #expect(await steps.next() == .started(1))
            subject.send(2)
            let history = await next(2, of: &steps)
            #expect(Set(history) == [.cancelled(1), .started(2)])
            await waitUntil { clock.pendingCount > 0 }
            clock.advance(by: .seconds(1))
            #expect(await steps.next() == .returned(2))
            withExtendedLifetime(cancellable) {}
        }
    }

    @Test func dropWhileBusyDropsValuesArrivingWhileABodyRuns() async {
        let clock = ManualClock()
        let (log, logger) = AsyncStream.makeStream(of: Step.self)
        var steps = log.makeAsyncIterator()
        let ledger = Ledger(clock: ManualClock())
        await Ledger.$current.withValue(ledger) {
            let subject = PassthroughSubject<Int, Never>()
            let cancellable = subject.asyncSink(overlap: .dropWhileBusy, receiveValue: body(clock, logger))
            subject.send(1)
            #expect(await steps.next() == .started(1))
            subject.send(2)
            subject.send(3)
            await waitUntil { clock.pendingCount > 0 }
            clock.advance(by: .seconds(1))
            #expect(await steps.next() == .returned(1))
            await waitUntil { ledger.counters.tasks == 0 }
            subject.send(4)
            #expect(await steps.next() == .started(4))
            cancellable.cancel()
            #expect(await steps.next() == .cancelled(4))
        }
    }

    @Test func bodiesRunAtTheRequestedPriority() async {
        await withOwnLedger {
            let (log, logger) = AsyncStream.makeStream(of: TaskPriority.self)
            var priorities = log.makeAsyncIterator()
            let cancellable = Just(1).asyncSink(priority: .background) { _ in
                logger.yield(Task.currentPriority)
            }
            #expect(await priorities.next() == .background)
            withExtendedLifetime(cancellable) {}
        }
    }

    @Test func cancellingWhileValuesArriveOnAnotherThreadLeavesNothingRunning() async {
        let ledger = Ledger(clock: ManualClock())
        await Ledger.$current.withValue(ledger) {
            let clock = ManualClock()
            for _ in 0..<300 {
                let subject = PassthroughSubject<Int, Never>()
                let cancellable = Slot(
                    subject.asyncSink { _ in try? await clock.sleep(for: .seconds(1)) })
                let sender = Slot(subject)
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { for value in 0..<20 { sender.value!.send(value) } }
                    group.addTask { cancellable.value!.cancel() }
                }
                // Bodies started before the cancel end when they see it; none start after.
                await waitUntil { ledger.counters.tasks == 0 }
                sender.value!.send(99)
                #expect(ledger.counters.tasks == 0)
            }
        }
    }

    /// A value sent from a task with another ledger current: the body runs with the ledger of the
    /// subscription, where its entry is, so what it makes records there too.
    @Test func aBodyRunsWithTheLedgerCurrentAtTheSubscription() async {
        let subscribed = Ledger(clock: ManualClock())
        let sending = Ledger(clock: ManualClock())
        let (log, logger) = AsyncStream.makeStream(of: Bool.self)
        var seen = log.makeAsyncIterator()
        let subject = Slot(PassthroughSubject<Int, Never>())
        let cancellable = Ledger.$current.withValue(subscribed) {
            subject.value?.asyncSink { _ in logger.yield(Ledger.current === subscribed) }
        }
        await Ledger.$current.withValue(sending) {
            await Task { subject.value?.send(1) }.value
        }
        #expect(await seen.next() == true)
        withExtendedLifetime(cancellable) {}
    }
}
