import NIOCore

/// When the server takes and sends the next snapshot: at once when the ledger changes after a
/// quiet spell, else when `interval` has passed since the last one. So at most one snapshot per
/// interval, and the last change is never left unsent. A client that joins is paced the same
/// way, and gets a snapshot taken after it joined — not the last one again: deliveries are
/// counted and ages grow without a change — so clients that come and go, however fast, cost no
/// more than a snapshot per interval. One snapshot is taken at a time (off the event loop): a
/// change or a client while one is being taken waits for the next. A pure state machine: the hub
/// feeds it the time, and arms and cancels the timer it asks for.
struct SnapshotPacer {
    enum Action: Equatable {
        /// Start taking a snapshot; call ``taken(at:)`` when it is ready to send.
        case take
        /// Arm a timer for this deadline; call ``timerFired()`` when it fires.
        case arm(NIODeadline)
        /// Nothing: a timer is armed or a snapshot is being taken, and the next snapshot will
        /// include this change (or go to this client).
        case wait
    }

    let interval: TimeAmount
    /// When the last snapshot was ready. Kept when the last client leaves: one that comes back at
    /// once waits for its interval.
    private(set) var lastSent: NIODeadline?
    private(set) var timerArmed = false
    /// Whether a snapshot is being taken.
    private(set) var isTaking = false
    /// Whether a snapshot was wanted while one was being taken: the next one follows it.
    private var wantedWhileTaking = false

    init(interval: TimeAmount) {
        self.interval = interval
    }

    mutating func timerFired() -> Action {
        timerArmed = false
        isTaking = true
        return .take
    }

    /// The snapshot being taken is ready (and sent): the next one, if wanted meanwhile, after an
    /// interval.
    mutating func taken(at now: NIODeadline) -> Action {
        isTaking = false
        lastSent = now
        guard wantedWhileTaking else { return .wait }
        wantedWhileTaking = false
        timerArmed = true
        return .arm(now + interval)
    }

    /// The last client left: the hub has cancelled the timer. The pace stays, and a snapshot
    /// being taken is still ready later.
    mutating func stoppedObserving() {
        timerArmed = false
        wantedWhileTaking = false
    }

    /// A snapshot is wanted: the ledger changed, or a client joined.
    mutating func snapshotWanted(at now: NIODeadline) -> Action {
        if timerArmed { return .wait }
        if isTaking {
            wantedWhileTaking = true
            return .wait
        }
        if let lastSent, now < lastSent + interval {
            timerArmed = true
            return .arm(lastSent + interval)
        }
        isTaking = true
        return .take
    }
}
