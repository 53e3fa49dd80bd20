import NIOCore

/// When the server takes and sends the next snapshot: at once when the ledger changes after a
/// quiet spell, else when `interval` has passed since the last one. So at most one snapshot per
/// interval, and the last change is never left unsent. A pure state machine: the hub feeds it the
/// time, and arms and cancels the timer it asks for.
struct SnapshotPacer {
    enum Action: Equatable {
        /// Take a snapshot now, and call ``sent(at:)``.
        case send
        /// Arm a timer for this deadline; call ``timerFired()`` when it fires.
        case arm(NIODeadline)
        /// Nothing: a timer is armed already, and its snapshot will include this change.
        case wait
    }

    let interval: TimeAmount
    private(set) var lastSent: NIODeadline?
    private(set) var timerArmed = false

    init(interval: TimeAmount) {
        self.interval = interval
    }

    mutating func ledgerChanged(at now: NIODeadline) -> Action {
        if timerArmed { return .wait }
        if let lastSent, now < lastSent + interval {
            timerArmed = true
            return .arm(lastSent + interval)
        }
        return .send
    }

    mutating func timerFired() -> Action {
        timerArmed = false
        return .send
    }

    mutating func sent(at now: NIODeadline) {
        lastSent = now
    }

    /// The last client left: the hub has cancelled the timer, and the next client starts afresh.
    mutating func reset() {
        lastSent = nil
        timerArmed = false
    }
}
