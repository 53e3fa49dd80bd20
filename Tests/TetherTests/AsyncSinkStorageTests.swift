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

    /// A starter that records the ticket it is given and the task `task` makes.
    private func starter(
        tickets: Recorder<AsyncSinkTicket>, tasks: Recorder<Task<Void, Never>>,
        _ task: @escaping @Sendable () -> Task<Void, Never> = { Task {} }
    ) -> AsyncSinkStarter {
        AsyncSinkStarter { ticket in
            tickets.record(ticket)
            let made = task()
            tasks.record(made)
            return made
        }
    }

    @Test(arguments: [AsyncSinkOverlap.concurrent, .serial, .latest, .dropWhileBusy])
    func aStartedBodyLeavesTheBooksWhenItFinishes(overlap: AsyncSinkOverlap) {
        let storage = storage(overlap)
        let tickets = Recorder<AsyncSinkTicket>()
        storage.receive(starter(tickets: tickets, tasks: Recorder()))
        #expect(storage.runningCount == 1)
        #expect(ledger.counters.tasks == 1)
        #expect(tickets.events.count == 1)
        tickets.events.first?.finished()
        #expect(storage.runningCount == 0)
        #expect(ledger.counters.tasks == 0)
    }

    @Test(arguments: [AsyncSinkOverlap.concurrent, .serial, .latest, .dropWhileBusy])
    func aBodyStartingWhenTheSinkIsCancelledIsCancelledAndItsEntryEnds(overlap: AsyncSinkOverlap) {
        let storage = storage(overlap)
        let tasks = Recorder<Task<Void, Never>>()
        // The sink is cancelled once the body was decided on, before its task is booked.
        storage.receive(
            starter(tickets: Recorder(), tasks: tasks) {
                storage.cancel()
                return Task {}
            })
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
            storage.receive(starter(tickets: Recorder(), tasks: tasks) { Task { for await _ in values {} } })
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
