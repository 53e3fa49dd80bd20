import Synchronization

/// Starts one value's body in a task, given the body's ticket: what waits in the state machine
/// when the overlap policy may hold values back (every policy but `.concurrent`). A struct, not a
/// bare function, so that it is not re-abstracted through a thunk per value.
struct AsyncSinkStarter: Sendable {
    let start: @Sendable (AsyncSinkTicket) -> Task<Void, Never>
}

/// What a body's task needs from its storage: its place in the books, its ledger entry, its
/// priority. A class: the task's generic closure captures one reference, not a struct of several
/// (Benchmarks/README.md, "asyncSink").
final class AsyncSinkTicket: Sendable {
    /// `place` before the body has one in the books, or when it never had one (turned away).
    private static let unplaced: UInt64 = 0

    let storage: AsyncSinkStorage
    let entry: LedgerEntry?
    let priority: TaskPriority?
    /// The body's id in the books plus one, or `unplaced`. A `.concurrent` body's is written
    /// once, by the storage under its lock, before it opens the `gate`; the body reads it only
    /// after passing the gate.
    private let place: Atomic<UInt64>

    /// Opened by the storage once the body's task is in its books (or turned away): see
    /// ``TaskStartGate``.
    let gate = TaskStartGate()

    /// A ticket for a body whose id is known (`id`), or, without one, for a `.concurrent` body,
    /// placed later with ``placed(as:)``.
    init(storage: AsyncSinkStorage, id: UInt64? = nil, entry: LedgerEntry?, priority: TaskPriority?) {
        self.storage = storage
        self.entry = entry
        self.priority = priority
        place = Atomic(id.map { $0 &+ 1 } ?? Self.unplaced)
    }

    /// Whether the body must run with its entry bound as ``LedgerEntry/current``, so that its
    /// deliveries count there. With the ledger off there is no entry, and unless the task
    /// inherited one from the sender's, nothing to bind (and no task-local to push).
    var bindsEntry: Bool { entry != nil || LedgerEntry.current != nil }

    /// The storage put the body in its books as `id` (before opening the gate).
    func placed(as id: UInt64) { place.store(id &+ 1, ordering: .releasing) }

    /// The body returned, or was skipped because its task was cancelled before it began.
    func finished() {
        entry?.end(.ended)
        let place = place.load(ordering: .acquiring)
        if place != Self.unplaced { storage.finished(id: place &- 1) }
    }
}

/// The lock and the side effects of an `asyncSink`: starts and cancels the body tasks the state
/// machine decides on, always after unlocking.
///
/// Not generic: each value is bound to its body before it arrives here, so the state machine is
/// compiled for one concrete type and the per-value path looks up no metadata.
final class AsyncSinkStorage: Sendable {
    private let state: Mutex<AsyncSinkStateMachine<AsyncSinkStarter>>
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

    func receive(_ starter: AsyncSinkStarter) {
        let action = state.withLock { $0.received(starter) }
        guard case .start(let id, let starter, let cancelling) = action else { return }
        if !cancelling.isEmpty { cancel(cancelling) }
        start(id: id, starter: starter)
    }

    func cancel() {
        cancel(state.withLock { $0.cancel() })
    }

    private func cancel(_ running: [AsyncSinkStateMachine<AsyncSinkStarter>.Running]) {
        for body in running {
            body.task.cancel()
            body.entry?.end(.cancelled)
        }
    }

    /// For `.concurrent`, where every value starts its body at once: the ticket of a body about to
    /// start. The caller makes the body's task and hands both to ``place(_:task:)``, one lock per
    /// value. A value racing with the cancellation is cancelled when it is placed.
    func concurrentTicket() -> AsyncSinkTicket {
        let entry = ledger.open(.task, owner: nil, site: site, bound: false)
        return AsyncSinkTicket(storage: self, entry: entry, priority: priority)
    }

    /// Puts a `.concurrent` body's task in the books; cancels it when the sink was cancelled
    /// meanwhile. Either way, then lets the body pass its gate: it cannot finish before.
    func place(_ ticket: AsyncSinkTicket, task: Task<Void, Never>) {
        let placed = state.withLock { machine in
            guard let id = machine.startedConcurrentBody(task: task, entry: ticket.entry) else {
                return false
            }
            ticket.placed(as: id)
            return true
        }
        if !placed {
            task.cancel()
            ticket.entry?.end(.cancelled)
        }
        ticket.gate.open(admitting: placed)
    }

    /// A body's task now exists; cancels it when the sink was cancelled (or, for `.latest`, a later
    /// value replaced it) while it was starting.
    private func register(_ ticket: AsyncSinkTicket, id: UInt64, task: Task<Void, Never>) {
        let registered = state.withLock { $0.registered(id: id, task: task, entry: ticket.entry) }
        if !registered {
            task.cancel()
            ticket.entry?.end(.cancelled)
        }
        ticket.gate.open(admitting: registered)
    }

    private func start(id: UInt64, starter: AsyncSinkStarter) {
        let entry = ledger.open(.task, owner: nil, site: site, bound: false)
        let ticket = AsyncSinkTicket(storage: self, id: id, entry: entry, priority: priority)
        register(ticket, id: id, task: starter.start(ticket))
    }

    /// A body's task is done (see ``AsyncSinkTicket/finished()``); for `.serial`, starts the next.
    fileprivate func finished(id: UInt64) {
        guard let next = state.withLock({ $0.finished(id: id) }) else { return }
        start(id: next.id, starter: next.value)
    }
}
