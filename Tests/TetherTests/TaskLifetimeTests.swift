import Foundation
import Synchronization
import Testing
import Tether

private let rotated = Notification.Name("TaskLifetimeTests.rotated")

/// Suspends until the calling task is cancelled (a clock that is never advanced).
private func waitForCancellation() async {
    try? await ManualClock().sleep(for: .seconds(1))
}

@Suite struct TaskLifetimeTests {
    @Test func storeInSetCancelsTheTaskWhenTheSetIsReleased() async {
        let ledger = Ledger(clock: ManualClock())
        await Ledger.$current.withValue(ledger) {
            let task = Task { await waitForCancellation() }
            do {
                var cancellables = Set<AnyCancellable>()
                task.store(in: &cancellables)
                #expect(ledger.counters.tasks == 1)
                #expect(ledger.snapshotRearmingOnChange().unowned.map(\.kind) == [.task])
            }
            await task.value
            #expect(task.isCancelled)
            #expect(ledger.counters.tasks == 0)
        }
    }

    @Test func asCancellableCancelsTheTaskWhenCancelled() async {
        await withOwnLedger {
            let task = Task { await waitForCancellation() }
            let cancellable = task.asCancellable()
            cancellable.cancel()
            await task.value
            #expect(task.isCancelled)
        }
    }

    @Test func storeInBagCancelsTheTaskWhenTheOwnerDeinitializes() async {
        let clock = ManualClock()
        let ledger = Ledger(clock: clock)
        await Ledger.$current.withValue(ledger) {
            let task = Task { await waitForCancellation() }
            do {
                let owner = StreamsOwner()
                task.store(boundTo: owner.bag)
                let entry = ledger.snapshotRearmingOnChange().owners.first?.entries.first
                #expect(entry?.kind == .task)
                #expect(entry?.bound == true)
                #expect(entry?.owner?.typeName == "StreamsOwner")
            }
            await task.value
            #expect(task.isCancelled)
            #expect(ledger.counters.tasks == 0)
            clock.advance(by: ledger.gracePeriod)
            #expect(ledger.snapshotRearmingOnChange().leaks.isEmpty)
        }
    }

    @Test func storeInEndedLifetimeCancelsAtOnce() async {
        let lifetime = Lifetime(ledger: Ledger(clock: ManualClock()))
        lifetime.end()
        let task = Task { await waitForCancellation() }
        task.store(boundTo: lifetime)
        await task.value
        #expect(task.isCancelled)
    }

    @Test func lifetimeTaskIsCancelledWhenTheLifetimeEndsAndLeavesNoEntry() async {
        let clock = ManualClock()
        let ledger = Ledger(clock: clock)
        await Ledger.$current.withValue(ledger) {
            let task: Task<Void, Never>
            do {
                let owner = StreamsOwner()
                task = Task(boundTo: owner.bag) { await waitForCancellation() }
                #expect(ledger.counters.tasks == 1)
            }
            await task.value
            #expect(ledger.counters.tasks == 0)
            clock.advance(by: ledger.gracePeriod)
            #expect(ledger.snapshotRearmingOnChange().leaks.isEmpty)
        }
    }

    @Test func lifetimeTaskThatIgnoresCancellationStaysVisibleAndLeaks() async {
        let clock = ManualClock()
        let ledger = Ledger(clock: clock)
        await Ledger.$current.withValue(ledger) {
            let (gate, open) = AsyncStream.makeStream(of: Void.self)
            let task: Task<Void, Never>
            do {
                let owner = StreamsOwner()
                // Waits on a stream that ignores cancellation.
                task = Task(boundTo: owner.bag) { for await _ in gate {} }
            }
            #expect(ledger.counters.tasks == 1)
            clock.advance(by: ledger.gracePeriod)
            #expect(ledger.snapshotRearmingOnChange().leaks.map(\.kindName) == ["task"])
            open.finish()
            await task.value
            #expect(ledger.counters.tasks == 0)
        }
    }

    @Test func finishedLifetimeTasksDoNotStayInTheLifetime() async {
        let ledger = Ledger(clock: ManualClock())
        await Ledger.$current.withValue(ledger) {
            let owner = StreamsOwner()
            for _ in 0..<200 { await Task(boundTo: owner.bag) {}.value }
            #expect(ledger.counters.tasks == 0)
            let cancelled = ledger.snapshotRearmingOnChange().events.filter { $0.kind == .cancelled }
            owner.bag.dispose()
            #expect(
                ledger.snapshotRearmingOnChange().events.filter { $0.kind == .cancelled }.count
                    == cancelled.count)
        }
    }

    @Test func mainActorOperationRunsOnTheMainActor() async {
        let lifetime = Lifetime(ledger: Ledger(clock: ManualClock()))
        let onMain = Mutex(false)
        await Task(boundTo: lifetime) { @MainActor in
            MainActor.assertIsolated()
            onMain.withLock { $0 = true }  // reached only past the isolation check
        }.value
        #expect(onMain.withLock { $0 })
    }

    @Test func attributedTaskOutlivesItsOwnerAndCountsZombieDeliveries() async {
        let clock = ManualClock()
        let ledger = Ledger(clock: clock)
        await Ledger.$current.withValue(ledger) {
            let center = NotificationCenter()
            let (progress, step) = AsyncStream.makeStream(of: Int.self)
            var steps = progress.makeAsyncIterator()
            let task: Task<Void, Never>
            let owner = StreamsOwner()
            let notifications = center.tetherNotifications(named: rotated)
            task = Task.attributed(to: owner.bag) {
                var count = 0
                for await _ in notifications {
                    count += 1
                    step.yield(count)
                }
            }
            center.post(name: rotated, object: nil)
            #expect(await steps.next() == 1)
            owner.bag.dispose()
            center.post(name: rotated, object: nil)
            #expect(await steps.next() == 2)
            let entry = ledger.snapshotRearmingOnChange().owners.first?.entries.first
            #expect(entry?.bound == false)
            #expect(entry?.deliveries == 2)
            #expect(ledger.counters.zombies == 1)
            task.cancel()
            await task.value
            #expect(ledger.counters.tasks == 0)
            withExtendedLifetime(owner) {}
        }
    }

    @Test func boundLoopCountsDeliveriesAndStopsWithItsOwner() async {
        let ledger = Ledger(clock: ManualClock())
        await Ledger.$current.withValue(ledger) {
            let center = NotificationCenter()
            let (progress, step) = AsyncStream.makeStream(of: Int.self)
            var steps = progress.makeAsyncIterator()
            let task: Task<Void, Never>
            do {
                let owner = StreamsOwner()
                let notifications = center.tetherNotifications(named: rotated)
                task = Task(boundTo: owner.bag) {
                    var count = 0
                    for await _ in notifications {
                        count += 1
                        step.yield(count)
                    }
                }
                center.post(name: rotated, object: nil)
                center.post(name: rotated, object: nil)
                #expect(await steps.next() == 1)
                #expect(await steps.next() == 2)
                #expect(ledger.snapshotRearmingOnChange().owners.first?.entries.first?.deliveries == 2)
            }
            await task.value
            center.post(name: rotated, object: nil)
            #expect(ledger.counters.zombies == 0)
            #expect(ledger.counters.tasks == 0)
        }
    }
}
