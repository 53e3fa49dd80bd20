import Synchronization

/// One value bound to its body: what waits in the state machine while the overlap policy holds a
/// value back, then makes the body's task. One object per value, which also holds the gate the
/// task waits at: the task's closure captures what else it needs (its id, its entry), so a value
/// costs no object besides this one and its task.
///
/// A protocol, so that the storage is not generic: each value is bound to its body before it
/// arrives there, the state machine is compiled for one concrete type and the per-value path looks
/// up no metadata. ``AsyncSinkValueBody`` is the one conformer outside tests.
protocol AsyncSinkBody: AnyObject, Sendable {
    /// Makes the body's task, booked in `storage` as `id` with `entry`. The task waits for
    /// ``open(admitting:)``, then runs the body unless it was cancelled first; either way, it then
    /// tells the storage (``AsyncSinkStorage/finished(id:entry:)``).
    func makeTask(id: UInt64, entry: LedgerEntry?, in storage: AsyncSinkStorage) -> Task<Void, Never>

    /// Lets the task's body begin (`admitting`), or not, once the storage has the task in its
    /// books: see ``TaskStartGate``.
    func open(admitting: Bool)
}

/// The lock and the side effects of an `asyncSink`: starts and cancels the body tasks the state
/// machine decides on, always after unlocking.
///
/// Every value takes one path, whatever the overlap policy: ``receive(_:)`` asks the state machine,
/// which books the body it starts; the body's task is made after unlocking, then booked as running
/// (or cancelled at once, if the sink was cancelled meanwhile), and only then may the body begin.
final class AsyncSinkStorage: Sendable {
    private typealias Machine = AsyncSinkStateMachine<any AsyncSinkBody>

    /// The priority of each body's task.
    let priority: TaskPriority?
    private let state: Mutex<Machine>
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

    /// A value arrived, bound to its body.
    func receive(_ body: any AsyncSinkBody) {
        let action = state.withLock { $0.received(body) }
        guard case .start(let id, let body, let cancelling) = action else { return }
        cancel(cancelling)
        start(id: id, body: body)
    }

    func cancel() {
        cancel(state.withLock { $0.cancel() })
    }

    /// A body's task is done: its body returned, or was skipped because the task was cancelled
    /// before it began. Ends its entry; for `.serial`, starts the next body.
    func finished(id: UInt64, entry: LedgerEntry?) {
        entry?.end(.ended)
        guard let next = state.withLock({ $0.finished(id: id) }) else { return }
        start(id: next.id, body: next.value)
    }

    private func cancel(_ running: [Machine.Running]) {
        for body in running {
            body.task.cancel()
            body.entry?.end(.cancelled)
        }
    }

    /// Makes the task of the body the state machine booked as `id`, then books the task; cancels it
    /// when the sink was cancelled (or, for `.latest`, a later value replaced it) meanwhile. Either
    /// way, then lets the body pass its gate: it cannot begin before.
    private func start(id: UInt64, body: any AsyncSinkBody) {
        let entry = ledger.open(.task, owner: nil, site: site, bound: false)
        let task = body.makeTask(id: id, entry: entry, in: self)
        let registered = state.withLock { $0.registered(id: id, task: task, entry: entry) }
        if !registered {
            task.cancel()
            entry?.end(.cancelled)
        }
        body.open(admitting: registered)
    }
}
