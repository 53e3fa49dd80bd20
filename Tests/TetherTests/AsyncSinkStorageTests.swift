import Testing

@testable import Tether

/// The hand-over between a `.concurrent` body's task and the storage's books: the task is made
/// before the storage places it, and its body waits at the ticket's gate until then.
@Suite struct AsyncSinkStorageTests {
    private let ledger = Ledger(clock: ManualClock())

    private func concurrentStorage() -> AsyncSinkStorage {
        AsyncSinkStorage(
            overlap: .concurrent, priority: nil, ledger: ledger, site: CallSite(fileID: #fileID, line: #line))
    }

    @Test func aPlacedBodyLeavesTheBooksWhenItFinishes() {
        let storage = concurrentStorage()
        let ticket = storage.concurrentTicket()
        storage.place(ticket, task: Task {})
        #expect(storage.runningCount == 1)
        #expect(ledger.counters.tasks == 1)
        ticket.finished()
        #expect(storage.runningCount == 0)
        #expect(ledger.counters.tasks == 0)
    }

    @Test func aBodyPlacedAfterCancelIsCancelledAndItsEntryEnds() {
        let storage = concurrentStorage()
        let ticket = storage.concurrentTicket()
        storage.cancel()
        #expect(ledger.counters.tasks == 1)
        let task = Task<Void, Never> {}
        storage.place(ticket, task: task)
        #expect(task.isCancelled)
        #expect(storage.runningCount == 0)
        #expect(ledger.counters.tasks == 0)
    }

    @Test(.timeLimit(.minutes(1))) func cancelCancelsEveryPlacedBody() async {
        let storage = concurrentStorage()
        // Bodies that run until they are cancelled: each waits on a stream nothing is sent to.
        let streams = (0..<3).map { _ in AsyncStream.makeStream(of: Int.self) }
        let tasks = streams.map { values, _ in
            let task = Task<Void, Never> { for await _ in values {} }
            storage.place(storage.concurrentTicket(), task: task)
            return task
        }
        #expect(storage.runningCount == 3)
        storage.cancel()
        #expect(tasks.allSatisfy { $0.isCancelled })
        #expect(storage.runningCount == 0)
        #expect(ledger.counters.tasks == 0)
        for task in tasks { await task.value }
        for (_, continuation) in streams { continuation.finish() }
    }
}
