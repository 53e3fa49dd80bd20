import Synchronization

/// One value bound to its body: what waits in the state machine while the overlap policy holds a
/// value back, is booked there once it starts, and makes its task. One object per value: the
/// ``TaskSlot`` that keeps its task, with the gate the task waits at, is inline in it, and the
/// task's closure captures what else it needs (its id, its entry).
///
/// A protocol, so that the storage is not generic: each value is bound to its body before it
/// arrives there, and the state machine is compiled for one concrete type. Making the body is the
/// one generic step per value. ``AsyncSinkValueBody`` is the one conformer outside tests.
protocol AsyncSinkBody: AnyObject, Sendable {
    /// Makes the body's task, booked in `storage` as `id` with `entry`, and hands it to the slot.
    /// The task waits at the slot's gate, then runs the body unless it was cancelled first; either
    /// way, it then tells the storage (``AsyncSinkStorage/finished(id:entry:)``).
    func start(id: UInt64, entry: LedgerEntry?, in storage: AsyncSinkStorage)

    /// Cancels the body's task, now or as soon as it is made (``TaskSlot/cancel()``).
    func cancel()
}

/// The lock and the side effects of an `asyncSink`: starts and cancels the bodies the state
/// machine decides on, always after unlocking.
///
/// Every value takes one path, whatever the overlap policy: ``receive(_:)`` asks the state machine,
/// which books the body it starts; the body's task is made after unlocking and kept by the body,
/// where a cancel reaches it (or cancelled at once, if a cancel came first), and only then may the
/// body begin.
final class AsyncSinkStorage: Sendable {
    /// The priority of each body's task.
    let priority: TaskPriority?
    private let state: Mutex<AsyncSinkStateMachine<any AsyncSinkBody>>
    /// The ledger current at the subscription: the bodies' entries record into it, and each body
    /// runs with it current, wherever its value was sent from.
    let ledger: Ledger
    private let site: CallSite
    /// Each body's task's name: the sink's call site (its bodies have no owner), spelled once.
    let taskName: TaskName

    init(overlap: AsyncSinkOverlap, priority: TaskPriority?, ledger: Ledger, site: CallSite) {
        state = Mutex(AsyncSinkStateMachine(overlap: overlap))
        self.priority = priority
        self.ledger = ledger
        self.site = site
        taskName = TaskName(site: site)
    }

    /// How many bodies are running.
    var runningCount: Int { state.withLock { $0.runningCount } }

    /// A value arrived, bound to its body.
    func receive(_ body: any AsyncSinkBody) {
        let action = state.withLock { $0.received(body) }
        guard case .start(let id, let body, let cancelling) = action else { return }
        for replaced in cancelling { replaced.cancel() }
        start(id: id, body: body)
    }

    func cancel() {
        let (running, dropped) = state.withLock { $0.cancel() }
        for body in running { body.cancel() }
        _ = dropped  // released here, after unlocking
    }

    /// A body's task is done: its body returned, or was skipped because the task was cancelled
    /// before it began. Ends its entry; for `.serial`, starts the next body.
    func finished(id: UInt64, entry: LedgerEntry?) {
        entry?.end(.ended)
        guard let next = state.withLock({ $0.finished(id: id) }) else { return }
        start(id: next.id, body: next.body)
    }

    private func start(id: UInt64, body: any AsyncSinkBody) {
        body.start(id: id, entry: ledger.open(.task, owner: nil, site: site, bound: false), in: self)
    }
}
