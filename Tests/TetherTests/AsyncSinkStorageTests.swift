import Testing

@testable import Tether

/// The hand-over between a body's task and the storage, the same for every overlap policy: the
/// storage books the body, the body makes its task (here, the test's closure does) and keeps it in
/// its slot, where a cancel reaches it, and only then opens the task's gate.
@Suite struct AsyncSinkStorageTests {
    private let ledger = Ledger(clock: ManualClock())

    private func storage(_ overlap: AsyncSinkOverlap = .concurrent) -> AsyncSinkStorage {
        AsyncSinkStorage(
            overlap: overlap, priority: nil, ledger: ledger, site: CallSite(fileID: #fileID, line: #line))
    }

    /// A body whose task `task` makes, kept in a real slot; records its id and entry.
    private final class Body: AsyncSinkBody {
        let task: @Sendable (AsyncSinkStorage) -> Task<Void, Never>
        let tasks: Recorder<Task<Void, Never>>
        let booked = Recorder<(id: UInt64, entry: LedgerEntry?)>()
        let slot = TaskSlot()

        init(
            tasks: Recorder<Task<Void, Never>>,
            _ task: @escaping @Sendable (AsyncSinkStorage) -> Task<Void, Never>
        ) {
            self.tasks = tasks
            self.task = task
        }

        func start(id: UInt64, entry: LedgerEntry?, in storage: AsyncSinkStorage) {
            booked.record((id, entry))
            let made = task(storage)
            tasks.record(made)
            slot.set(made, entry: entry)
        }

        func cancel() { slot.cancel() }

        /// Tells the storage the body returned, as its task would.
        func finish(in storage: AsyncSinkStorage) {
            for booked in booked.events { storage.finished(id: booked.id, entry: booked.entry) }
        }
    }

    private func body(
        tasks: Recorder<Task<Void, Never>> = Recorder(),
        _ task: @escaping @Sendable (AsyncSinkStorage) -> Task<Void, Never> = { _ in Task {} }
    ) -> Body {
        Body(tasks: tasks, task)
    }

    @Test(arguments: [AsyncSinkOverlap.concurrent, .serial, .latest, .dropWhileBusy])
    func aStartedBodyLeavesTheBooksWhenItFinishes(overlap: AsyncSinkOverlap) async {
        let storage = storage(overlap)
        let body = body()
        storage.receive(body)
        #expect(storage.runningCount == 1)
        #expect(ledger.counters.tasks == 1)
        #expect(await body.slot.gate.pass(), "the gate admits the body once its task is kept")
        #expect(body.booked.events.count == 1)
        body.finish(in: storage)
        #expect(storage.runningCount == 0)
        #expect(ledger.counters.tasks == 0)
    }

    @Test(arguments: [AsyncSinkOverlap.concurrent, .serial, .latest, .dropWhileBusy])
    func aBodyStartingWhenTheSinkIsCancelledIsCancelledAndItsEntryEnds(overlap: AsyncSinkOverlap) async {
        let storage = storage(overlap)
        let tasks = Recorder<Task<Void, Never>>()
        // The sink is cancelled once the body was decided on, before its task is made.
        let body = body(tasks: tasks) { storage in
            storage.cancel()
            return Task {}
        }
        storage.receive(body)
        #expect(await !body.slot.gate.pass(), "the body does not begin")
        #expect(tasks.events.count == 1)
        #expect(tasks.events.allSatisfy { $0.isCancelled })
        #expect(storage.runningCount == 0)
        #expect(ledger.counters.tasks == 0)
    }

    @Test func aLatestValueCancelsABodyStillStarting() async {
        let storage = storage(.latest)
        let tasks = Recorder<Task<Void, Never>>()
        let second = body(tasks: tasks)
        // The second value arrives while the first body's task is being made.
        let first = body(tasks: tasks) { storage in
            storage.receive(second)
            return Task {}
        }
        storage.receive(first)
        #expect(await !first.slot.gate.pass(), "the replaced body does not begin")
        #expect(await second.slot.gate.pass())
        #expect(tasks.events.count == 2)
        #expect(tasks.events.map(\.isCancelled) == [false, true], "the second task is made first")
        #expect(ledger.counters.tasks == 1, "the replaced body's entry ended")
        first.finish(in: storage)
        #expect(storage.runningCount == 1)
    }

    @Test(.timeLimit(.minutes(1))) func cancelCancelsEveryStartedBody() async {
        let storage = storage()
        let tasks = Recorder<Task<Void, Never>>()
        // Bodies that run until they are cancelled: each waits on a stream nothing is sent to.
        let streams = (0..<3).map { _ in AsyncStream.makeStream(of: Int.self) }
        for (values, _) in streams {
            storage.receive(body(tasks: tasks) { _ in Task { for await _ in values {} } })
        }
        #expect(storage.runningCount == 3)
        storage.cancel()
        #expect(tasks.events.count == 3)
        #expect(tasks.events.allSatisfy { $0.isCancelled })
        #expect(storage.runningCount == 0)
        #expect(ledger.counters.tasks == 0)
        for task in tasks.events { await task.value }
        for (_, continuation) in streams { continuation.finish() }
    }
}
