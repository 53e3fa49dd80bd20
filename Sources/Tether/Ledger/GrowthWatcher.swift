import Synchronization

/// One ``Ledger/onGrowth(_:)`` registration: reports are queued and handed to the handler one at
/// a time, by the thread that found the queue idle.
///
/// Calls never overlap: a report that arrives during a call — from another thread, or from the
/// handler itself through a checkpoint it makes — is queued, and the calling thread hands it on
/// after the call returns, so a handler may re-enter the ledger without meeting a lock it holds.
/// A cancel marks the watch and drops the queue; from any thread but the one in the handler it
/// then waits for the call in progress (`calls`), so no call starts or runs after it returns.
/// The handler's thread is known by its identity, not by a task-local value, which a task the
/// handler starts would inherit.
final class GrowthWatcher: Sendable {
    private struct State {
        var cancelled = false
        var queue: [GrowthReport] = []
        /// The thread handing reports to the handler, while one does.
        var caller: CurrentThread?
    }

    private let handler: @Sendable (GrowthReport) -> Void
    private let state = Mutex(State())
    /// Held while the handler runs, so that a cancel from another thread can wait for the call.
    private let calls = Mutex(())

    init(_ handler: @escaping @Sendable (GrowthReport) -> Void) { self.handler = handler }

    func tell(_ reports: [GrowthReport]) {
        let thread = CurrentThread.id
        let claimed = state.withLock { state -> Bool in
            guard !state.cancelled else { return false }
            state.queue += reports
            guard state.caller == nil else { return false }  // the calling thread hands them on
            state.caller = thread
            return true
        }
        guard claimed else { return }
        calls.withLock { _ in
            while let report = next() { handler(report) }
        }
    }

    /// The next report to hand on, or nil — and the claim given up — when none is left.
    private func next() -> GrowthReport? {
        state.withLock { state in
            guard !state.cancelled, !state.queue.isEmpty else {
                state.caller = nil
                return nil
            }
            return state.queue.removeFirst()
        }
    }

    func cancel() {
        let thread = CurrentThread.id
        let mustWait = state.withLock { state -> Bool in
            state.cancelled = true
            state.queue.removeAll()
            return state.caller != nil && state.caller != thread
        }
        if mustWait { calls.withLock { _ in } }  // waits for the call in progress on another thread
    }
}
