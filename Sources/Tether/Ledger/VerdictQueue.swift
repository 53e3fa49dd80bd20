import DequeModule

/// The verdicts a ledger owes, as a machine: the owners whose grace period runs, in the order
/// they ended (a parent before its children), whether a timer is armed for the first, and how
/// many ends are half recorded — no verdict is judged while one is.
///
/// It knows owners by handle only. Whether an owner still awaits its verdict is its
/// ``OwnerState``'s to say, so the transitions that need it take it as `awaiting`; an owner that
/// stopped awaiting (it settled) is skipped when it comes up.
struct VerdictQueue {
    private struct Waiting {
        let deadline: Duration
        let owner: OwnerHandle
    }

    private var waiting = Deque<Waiting>()
    /// Whether a timer is armed for the first deadline.
    private(set) var timerArmed = false
    /// Ends begun and not yet recorded whole (``Ledger/beginEnd(of:)``).
    private(set) var endsInProgress = 0

    /// `owner` ended: its verdict falls due at `deadline`, after every verdict queued before it.
    mutating func enqueue(_ owner: OwnerHandle, dueAt deadline: Duration) {
        waiting.append(Waiting(deadline: deadline, owner: owner))
    }

    /// `owner` settled and is forgotten. The last verdict queued, an owner released as it ended,
    /// is dropped now; one further up is skipped when it comes up.
    mutating func forget(_ owner: OwnerHandle) {
        if waiting.last?.owner == owner { waiting.removeLast() }
    }

    /// An end began that is not recorded whole yet: no verdict is due until it is.
    mutating func beginEnd() { endsInProgress += 1 }

    /// An end ``beginEnd()`` began is recorded whole.
    mutating func finishEnd() {
        precondition(endsInProgress > 0, "an end finished that never began")
        endsInProgress -= 1
    }

    /// The deadline to arm the timer for, and the timer marked armed — when an owner still
    /// awaits its verdict, no timer is armed and no end is half recorded. Drops the owners at the
    /// front that no longer await, so no timer is armed for them.
    mutating func armTimer(awaiting: (OwnerHandle) -> Bool) -> Duration? {
        while let first = waiting.first, !awaiting(first.owner) { waiting.removeFirst() }
        guard endsInProgress == 0, !timerArmed, let first = waiting.first else { return nil }
        timerArmed = true
        return first.deadline
    }

    /// The armed timer fired: the next ``armTimer(awaiting:)`` may arm another.
    mutating func timerFired() { timerArmed = false }

    /// Whether a verdict is due by `now` and may be judged.
    func hasDue(at now: Duration) -> Bool {
        guard endsInProgress == 0, let first = waiting.first else { return false }
        return first.deadline <= now
    }

    /// The first owner whose verdict is due by `now`, taken out of the queue; nil when none is, or
    /// an end is half recorded.
    mutating func takeDue(at now: Duration) -> OwnerHandle? {
        guard hasDue(at: now) else { return nil }
        return waiting.removeFirst().owner
    }

    /// When the first verdict of an owner that still awaits one falls due.
    func nextDeadline(awaiting: (OwnerHandle) -> Bool) -> Duration? {
        waiting.first { awaiting($0.owner) }?.deadline
    }
}
