import NIOCore

/// When the server takes and sends the next snapshot: at once when the ledger changes after a
/// quiet spell, else when `interval` has passed since the last one. So at most one snapshot per
/// interval, and the last change is never left unsent. A client that joins is paced the same
/// way, and gets a snapshot taken after it joined — not the last one again: deliveries are
/// counted and ages grow without a change — so clients that come and go, however fast, cost no
/// more than a snapshot per interval. A pure state machine: the hub feeds it the time, and arms
/// and cancels the timer it asks for.
struct SnapshotPacer {
    enum Action: Equatable {
        /// Take a snapshot now, send it to every client, and call ``sent(at:)``.
        case send
        /// Arm a timer for this deadline; call ``timerFired()`` when it fires.
        case arm(NIODeadline)
        /// Nothing: a timer is armed already, and its snapshot will include this change (or go
        /// to this client).
        case wait
    }

    let interval: TimeAmount
    /// Kept when the last client leaves: one that comes back at once waits for its interval.
    private(set) var lastSent: NIODeadline?
    private(set) var timerArmed = false

    init(interval: TimeAmount) {
        self.interval = interval
    }

    mutating func timerFired() -> Action {
        timerArmed = false
        return .send
    }

    mutating func sent(at now: NIODeadline) { lastSent = now }

    /// The last client left: the hub has cancelled the timer. The pace stays.
    mutating func stoppedObserving() { timerArmed = false }

    /// A snapshot is wanted: the ledger changed, or a client joined.
    mutating func snapshotWanted(at now: NIODeadline) -> Action {
        if timerArmed { return .wait }
        if let lastSent, now < lastSent + interval {
            timerArmed = true
            return .arm(lastSent + interval)
        }
        return .send
    }
}
