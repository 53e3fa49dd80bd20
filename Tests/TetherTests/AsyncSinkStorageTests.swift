import Testing

@testable import Tether

/// The hand-over between a body's task and the storage's books, the same for every overlap
/// policy: the storage books the body, makes its task (here, the test's starter does), books the
/// task, and only then opens the body's gate.
@Suite struct AsyncSinkStorageTests {
    private let ledger = Ledger(clock: ManualClock())

    private func storage(_ overlap: AsyncSinkOverlap = .concurrent) -> AsyncSinkStorage {
        AsyncSinkStorage(
            overlap: overlap, priority: nil, ledger: ledger, site: CallSite(fileID: #fileID, line: #line))
    }

    /// A body whose task `task` makes; records its id and entry, and whether its gate opened.
    private final class Body: AsyncSinkBody {
        let task: @Sendable (AsyncSinkStorage) -> Task<Void, Never>
        let tasks: Recorder<Task<Void, Never>>
        let booked = Recorder<(id: UInt64, entry: LedgerEntry?)>()
        let opened = Recorder<Bool>()

        init(
            tasks: Recorder<Task<Void, Never>>,
            _ task: @escaping @Sendable (AsyncSinkStorage) -> Task<Void, Never>
        ) {
            self.tasks = tasks
            self.task = task
        }

        func makeTask(id: UInt64, entry: LedgerEntry?, in storage: AsyncSinkStorage) -> Task<Void, Never> {
            booked.record((id, entry))
            let made = task(storage)
            tasks.record(made)
            return made
        }

        func open(admitting: Bool) { opened.record(admitting) }
    }

    private func body(
        tasks: Recorder<Task<Void, Never>> = Recorder(),
        _ task: @escaping @Sendable (AsyncSinkStorage) -> Task<Void, Never> = { _ in Task {} }
    ) -> Body {
        Body(tasks: tasks, task)
    }

    @Test(arguments: [AsyncSinkOverlap.concurrent, .serial, .latest, .dropWhileBusy])
    func aStartedBodyLeavesTheBooksWhenItFinishes(overlap: AsyncSinkOverlap) {
        let storage = storage(overlap)
        let body = body()
        storage.receive(body)
        #expect(storage.runningCount == 1)
        #expect(ledger.counters.tasks == 1)
        #expect(body.opened.events == [true])
        let booked = body.booked.events
        #expect(booked.count == 1)
        if let booked = booked.first { storage.finished(id: booked.id, entry: booked.entry) }
        #expect(storage.runningCount == 0)
        #expect(ledger.counters.tasks == 0)
    }

    @Test(arguments: [AsyncSinkOverlap.concurrent, .serial, .latest, .dropWhileBusy])
    func aBodyStartingWhenTheSinkIsCancelledIsCancelledAndItsEntryEnds(overlap: AsyncSinkOverlap) {
        let storage = storage(overlap)
        let tasks = Recorder<Task<Void, Never>>()
        // The sink is cancelled once the body was decided on, before its task is booked.
        let body = body(tasks: tasks) { storage in
            storage.cancel()
            return Task {}
        }
        storage.receive(body)
        #expect(body.opened.events == [false], "the body does not begin")
        #expect(tasks.events.count == 1)
        #expect(tasks.events.allSatisfy { $0.isCancelled })
        #expect(storage.runningCount == 0)
        #expect(ledger.counters.tasks == 0)
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
