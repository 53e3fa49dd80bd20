import Synchronization

/// Where a task is kept, from before it is made until it is done, so that a cancel reaches it: a
/// cancel that comes before the task exists is remembered and applied when it is made. Holds the
/// gate the task's body waits at until then (``TaskStartGate``). For a lifetime's task and an
/// `asyncSink` body, inline in what holds it.
///
/// Thread-safe: the task and its entry behind one lock, taken once when the task is made and once
/// per cancel.
struct TaskSlot: ~Copyable, Sendable {
    // Not private: a type of another file holds the slot, and a private type in its layout breaks
    // the compiler's code generation there (Swift 6.3).
    enum State {
        case starting
        /// Cancelled before the task was made.
        case cancelled
        case running(Task<Void, Never>, LedgerEntry?)
    }

    private let state = Mutex(State.starting)
    let gate = TaskStartGate()

    /// The task is made: keeps it, or cancels it (and ends `entry` as cancelled) if a cancel came
    /// first; then lets the body begin, or not. `entry` is the one a cancel ends, if any.
    func set(_ task: Task<Void, Never>, entry: LedgerEntry?) {
        let cancelled = state.withLock { state -> Bool in
            guard case .starting = state else { return true }
            state = .running(task, entry)
            return false
        }
        if cancelled {
            task.cancel()
            entry?.end(.cancelled)
        }
        gate.open(admitting: !cancelled)
    }

    /// Cancels the task and ends its entry (if it has one) as cancelled; before the task is made, has
    /// ``set(_:entry:)`` do it. Every call cancels (the second does nothing more): a cancel
    /// racing another returns only once the task is cancelled.
    func cancel() {
        let running = state.withLock { state -> (task: Task<Void, Never>, entry: LedgerEntry?)? in
            switch state {
            case .starting:
                state = .cancelled
                return nil
            case .running(let task, let entry):
                return (task, entry)
            case .cancelled:
                return nil
            }
        }
        guard let running else { return }
        running.task.cancel()
        running.entry?.end(.cancelled)
    }
}
