import Synchronization

/// Starts one value's body in a task, given the body's ticket: what waits in the state machine
/// while the overlap policy holds a value back. A struct, not a bare function, so that it is not
/// re-abstracted through a thunk per value.
struct AsyncSinkStarter: Sendable {
    let start: @Sendable (AsyncSinkTicket) -> Task<Void, Never>
}

/// What a body's task needs from its storage: its id in the books, its ledger entry, its
/// priority. A class: the task's generic closure captures one reference, not a struct of several.
final class AsyncSinkTicket: Sendable {
    let storage: AsyncSinkStorage
    let id: UInt64
    let entry: LedgerEntry?
    let priority: TaskPriority?

    /// Opened by the storage once the body's task is in its books (or turned away): see
    /// ``TaskStartGate``.
    let gate = TaskStartGate()

    init(storage: AsyncSinkStorage, id: UInt64, entry: LedgerEntry?, priority: TaskPriority?) {
        self.storage = storage
        self.id = id
        self.entry = entry
        self.priority = priority
    }

    /// Whether the body must run with its entry bound as ``LedgerEntry/current``, so that its
    /// deliveries count there. With the ledger off there is no entry, and unless the task
    /// inherited one from the sender's, nothing to bind (and no task-local to push).
    var bindsEntry: Bool { entry != nil || LedgerEntry.current != nil }

    /// The body returned, or was skipped because its task was cancelled before it began.
    func finished() {
        entry?.end(.ended)
        storage.finished(id: id)
    }
}

/// The lock and the side effects of an `asyncSink`: starts and cancels the body tasks the state
/// machine decides on, always after unlocking.
///
/// Every value takes one path, whatever the overlap policy: ``receive(_:)`` asks the state machine,
/// which books the body it starts; the body's task is made after unlocking, then booked as running
/// (or cancelled at once, if the sink was cancelled meanwhile), and only then may the body begin.
///
/// Not generic: each value is bound to its body before it arrives here, so the state machine is
/// compiled for one concrete type and the per-value path looks up no metadata.
final class AsyncSinkStorage: Sendable {
    private typealias Machine = AsyncSinkStateMachine<AsyncSinkStarter>

    private let state: Mutex<Machine>
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

    /// A value arrived, bound to its body in `starter`.
    func receive(_ starter: AsyncSinkStarter) {
        let action = state.withLock { $0.received(starter) }
        guard case .start(let id, let starter, let cancelling) = action else { return }
        cancel(cancelling)
        start(id: id, starter: starter)
    }

    func cancel() {
        cancel(state.withLock { $0.cancel() })
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
    private func start(id: UInt64, starter: AsyncSinkStarter) {
        let entry = ledger.open(.task, owner: nil, site: site, bound: false)
        let ticket = AsyncSinkTicket(storage: self, id: id, entry: entry, priority: priority)
        let task = starter.start(ticket)
        let registered = state.withLock { $0.registered(id: id, task: task, entry: entry) }
        if !registered {
            task.cancel()
            entry?.end(.cancelled)
        }
        ticket.gate.open(admitting: registered)
    }

    /// A body's task is done (see ``AsyncSinkTicket/finished()``); for `.serial`, starts the next.
    fileprivate func finished(id: UInt64) {
        guard let next = state.withLock({ $0.finished(id: id) }) else { return }
        start(id: next.id, starter: next.value)
    }
}
