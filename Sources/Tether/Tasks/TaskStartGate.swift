import Synchronization

/// Holds a task's body back until the code that made the task has put it where a cancel reaches
/// it — a lifetime's handle, an asyncSink's books — then lets the body begin, or turns it away.
///
/// A task may start running before its maker has stored it (even before `Task.init` returns): a
/// body that began then could run on after a cancel that returned without reaching the task, in
/// breach of "no body starts after the cancel". The body waits for the gate instead, suspended if
/// it comes first; once the gate opens, a cancel has either reached the task (the body checks
/// `Task.isCancelled` next) or comes later.
///
/// Thread-safe: one atomic status; a lock only when the body arrives first and suspends. Kept
/// inline in what holds it (a ``TaskSlot``): no object of its own per task.
struct TaskStartGate: ~Copyable, Sendable {
    private enum Status: UInt8, AtomicRepresentable {
        /// Not opened, and the body has not arrived.
        case closed
        /// Opened: the body may begin.
        case admitting
        /// Opened: the body must not begin.
        case refusing
        /// The body arrived first and waits in `waiter`.
        case waiting
    }

    private let status = Atomic<Status>(.closed)
    /// The body, suspended until the gate opens; set only while `status` is `waiting`.
    private let waiter = Mutex<CheckedContinuation<Bool, Never>?>(nil)

    /// For the task's maker, once the task is stored: lets the body begin (`admitting`), or not.
    func open(admitting: Bool) {
        let opened: Status = admitting ? .admitting : .refusing
        guard status.exchange(opened, ordering: .acquiringAndReleasing) == .waiting else { return }
        let body = waiter.withLock { $0.take() }
        body?.resume(returning: admitting)
    }

    /// For the task, before its body: whether the body may begin, once the gate is open.
    func pass() async -> Bool {
        switch status.load(ordering: .acquiring) {
        case .admitting: return true
        case .refusing: return false
        case .closed, .waiting: break
        }
        return await withCheckedContinuation { body in
            // Under `waiter`'s lock: an opening that finds `waiting` takes the continuation only
            // once it is stored.
            let opened = waiter.withLock { waiter -> Status? in
                let (waits, current) = status.compareExchange(
                    expected: .closed, desired: .waiting, ordering: .acquiringAndReleasing)
                if waits { waiter = body }
                return waits ? nil : current
            }
            if let opened { body.resume(returning: opened == .admitting) }
        }
    }
}
