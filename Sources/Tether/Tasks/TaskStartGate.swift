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
/// Thread-safe: one atomic word; a lock only when the body arrives first and suspends. Kept inline
/// in what holds it (a ticket, a task handle): no object of its own per task.
struct TaskStartGate: ~Copyable, Sendable {
    private static let closed: UInt8 = 0
    private static let admitting: UInt8 = 1
    private static let refusing: UInt8 = 2
    private static let waiting: UInt8 = 3

    private let word = Atomic<UInt8>(TaskStartGate.closed)
    /// The body, suspended until the gate opens; set only while `word` says `waiting`.
    private let waiter = Mutex<CheckedContinuation<Bool, Never>?>(nil)

    /// For the task's maker, once the task is stored: lets the body begin (`admitting`), or not.
    func open(admitting: Bool) {
        let state = admitting ? Self.admitting : Self.refusing
        guard word.exchange(state, ordering: .acquiringAndReleasing) == Self.waiting else { return }
        let body = waiter.withLock { $0.take() }
        body?.resume(returning: admitting)
    }

    /// For the task, before its body: whether the body may begin, once the gate is open.
    func pass() async -> Bool {
        switch word.load(ordering: .acquiring) {
        case Self.admitting: return true
        case Self.refusing: return false
        default: break
        }
        return await withCheckedContinuation { body in
            // Under `waiter`'s lock: an opening that finds `waiting` takes the continuation only
            // once it is stored.
            let state = waiter.withLock { waiter -> UInt8? in
                let (waits, current) = word.compareExchange(
                    expected: Self.closed, desired: Self.waiting, ordering: .acquiringAndReleasing)
                if waits { waiter = body }
                return waits ? nil : current
            }
            if let state { body.resume(returning: state == Self.admitting) }
        }
    }
}
