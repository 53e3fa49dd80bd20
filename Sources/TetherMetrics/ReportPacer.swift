/// When a reporter reads its ledger: at once when the ledger changes after a quiet spell, else
/// when `interval` has passed since the last reading. So at most one reading per interval, the
/// last change is never left unread, and a busy ledger costs its binding threads one reading a
/// second. A pure state machine: the reporter feeds it the time, arms the timer it asks for and
/// reads when told to.
struct ReportPacer: Equatable {
    enum Phase: Equatable {
        /// Reporting; `lastReading` is when the ledger was last read, `timerArmed` whether a timer
        /// will read it again.
        case reporting(lastReading: Duration?, timerArmed: Bool)
        /// Cancelled, or the ledger is gone: nothing is read or written again.
        case ended
    }

    enum Action: Equatable {
        /// Read the ledger now, and call ``read(at:)``.
        case read
        /// Arm a timer for this deadline; call ``timerFired()`` when it fires.
        case arm(Duration)
        /// Nothing: a timer is armed already and its reading will include this change, or the
        /// reporting has ended.
        case wait
    }

    let interval: Duration
    private(set) var phase = Phase.reporting(lastReading: nil, timerArmed: false)

    init(interval: Duration) {
        self.interval = interval
    }

    var hasEnded: Bool { phase == .ended }

    mutating func ledgerChanged(at now: Duration) -> Action {
        guard case .reporting(let last, let armed) = phase else { return .wait }
        if armed { return .wait }
        if let last, now < last + interval {
            phase = .reporting(lastReading: last, timerArmed: true)
            return .arm(last + interval)
        }
        return .read
    }

    mutating func timerFired() -> Action {
        guard case .reporting(let last, _) = phase else { return .wait }
        phase = .reporting(lastReading: last, timerArmed: false)
        return .read
    }

    mutating func read(at now: Duration) {
        guard case .reporting(_, let armed) = phase else { return }
        phase = .reporting(lastReading: now, timerArmed: armed)
    }

    /// Ends the reporting. True the first time: the caller then takes back what it reported.
    mutating func end() -> Bool {
        guard phase != .ended else { return false }
        phase = .ended
        return true
    }
}
