import Synchronization

/// The lock and the side effects of an `asyncSink`: starts and cancels the body tasks the state
/// machine decides on, always after unlocking.
final class AsyncSinkStorage<Value: Sendable>: Sendable {
    typealias Body = @Sendable @isolated(any) (Value) async -> Void

    private let state: Mutex<AsyncSinkStateMachine<Value>>
    private let priority: TaskPriority?
    private let body: Body
    private let ledger: Ledger
    private let site: CallSite

    init(
        overlap: AsyncSinkOverlap, priority: TaskPriority?, ledger: Ledger, site: CallSite,
        body: @escaping Body
    ) {
        state = Mutex(AsyncSinkStateMachine(overlap: overlap))
        self.priority = priority
        self.ledger = ledger
        self.site = site
        self.body = body
    }

    /// How many bodies are running.
    var runningCount: Int { state.withLock { $0.runningCount } }

    func receive(_ value: Value) {
        let action = state.withLock { $0.received(value) }
        guard case .start(let id, let value, let cancelling) = action else { return }
        cancel(cancelling)
        start(id: id, value: value)
    }

    func cancel() {
        cancel(state.withLock { $0.cancel() })
    }

    private func cancel(_ running: [AsyncSinkStateMachine<Value>.Running]) {
        for body in running {
            body.task.cancel()
            body.entry?.end(.cancelled)
        }
    }

    private func start(id: UInt64, value: Value) {
        let entry = ledger.open(.task, owner: nil, site: site, bound: false)
        let task = Task(priority: priority) { [body] in
            if !Task.isCancelled {
                await LedgerEntry.$current.withValue(entry) { await body(value) }
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
        start(id: next.id, value: next.value)
    }
}
