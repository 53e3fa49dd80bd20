import Synchronization

/// One value's body, already bound to its value: what an `asyncSink` runs in a task.
typealias AsyncSinkJob = @Sendable () async -> Void

/// The lock and the side effects of an `asyncSink`: starts and cancels the body tasks the state
/// machine decides on, always after unlocking.
///
/// Not generic: `asyncSink` binds each value to its body in an ``AsyncSinkJob`` before handing it
/// here, so the state machine is used with one concrete type and compiled for it. With the value
/// type generic, each value looked up the metadata of the machine, its actions and its mutex at
/// run time (38 % of the per-value instructions).
final class AsyncSinkStorage: Sendable {
    private let state: Mutex<AsyncSinkStateMachine<AsyncSinkJob>>
    private let priority: TaskPriority?
    private let ledger: Ledger
    private let site: CallSite

    init(overlap: AsyncSinkOverlap, priority: TaskPriority?, ledger: Ledger, site: CallSite) {
        state = Mutex(AsyncSinkStateMachine(overlap: overlap))
        self.priority = priority
        self.ledger = ledger
        self.site = site
    }

    /// How many bodies are running.
    var runningCount: Int { state.withLock { $0.runningCount } }

    func receive(_ job: @escaping AsyncSinkJob) {
        let action = state.withLock { $0.received(job) }
        guard case .start(let id, let job, let cancelling) = action else { return }
        if !cancelling.isEmpty { cancel(cancelling) }
        start(id: id, job: job)
    }

    func cancel() {
        cancel(state.withLock { $0.cancel() })
    }

    private func cancel(_ running: [AsyncSinkStateMachine<AsyncSinkJob>.Running]) {
        for body in running {
            body.task.cancel()
            body.entry?.end(.cancelled)
        }
    }

    private func start(id: UInt64, job: @escaping AsyncSinkJob) {
        let entry = ledger.open(.task, owner: nil, site: site, bound: false)
        let task = Task(priority: priority) {
            if !Task.isCancelled {
                // The body's deliveries count on its own entry. With the ledger off there is
                // none, and unless the sender's task had one to inherit, nothing to bind.
                if entry != nil || LedgerEntry.current != nil {
                    await LedgerEntry.$current.withValue(entry, operation: job)
                } else {
                    await job()
                }
            }
            entry?.end(.ended)
            self.finished(id: id)
        }
        let registered = state.withLock { $0.registered(id: id, task: task, entry: entry) }
        if !registered {
            task.cancel()
            entry?.end(.cancelled)
        }
    }

    private func finished(id: UInt64) {
        guard let next = state.withLock({ $0.finished(id: id) }) else { return }
        start(id: next.id, job: next.value)
    }
}
