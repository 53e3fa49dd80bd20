import CoreMetrics
import Dispatch
import Synchronization
import Tether

#if TETHER_TSAN
// As in Tether: under TSan the lock is the pthread-backed one, whose calls TSan can see.
typealias Mutex<Value> = SanitizerMutex<Value>
#endif

/// One ``Tether/Ledger/reportMetrics(to:)``: reads its ledger when it changes, paced by a
/// ``ReportPacer``, and moves the metrics by what changed since the last reading written.
///
/// A reading is taken on the thread that changed the ledger (or on its clock's): a copy of the
/// counters, under the lock. It is written to the backend on a serial queue of the reporter's
/// own, never on that thread, so a backend whose handlers take their time (a lock, a socket)
/// holds up no thread of the app. The queue writes the newest reading it was handed: readings
/// land in the order they were taken, and one taken while another is written replaces any older
/// one still waiting (each gauge moves by its difference with the last reading written, so the
/// last one written is what shows). ``end()`` waits for a write in progress, takes the
/// reporter's numbers back out on the queue, and returns: nothing is written after it.
final class MetricsReporter: Sendable {
    /// The least time between two readings of a changing ledger.
    static let interval: Duration = .seconds(1)

    private struct State {
        var pacer = ReportPacer(interval: MetricsReporter.interval)
        /// The newest reading not handed to the backend yet, and the verdicts not counted yet.
        var unwritten: LedgerSnapshot.Counters?
        var verdicts = 0
        /// Whether a write is queued or under way: it writes what is unwritten when it runs.
        var writing = false
        /// The last reading written: what this reporter has added to the gauges, and the zombie
        /// count it has counted to. Changed on the queue alone.
        var written = LedgerSnapshot.Counters()
        var timer: ScheduledAction?

        /// Whether the caller must queue a write for what it just left unwritten.
        mutating func needsWrite() -> Bool {
            guard !writing else { return false }
            writing = true
            return true
        }

        /// What the queue writes next — from the last reading written to the newest, and the
        /// verdicts to count — or nil, and the write is over.
        mutating func takeUnwritten() -> (
            from: LedgerSnapshot.Counters, to: LedgerSnapshot.Counters, verdicts: Int
        )? {
            guard !pacer.hasEnded, unwritten != nil || verdicts > 0 else {
                writing = false
                return nil
            }
            defer {
                unwritten = nil
                verdicts = 0
            }
            return (written, unwritten ?? written, verdicts)
        }
    }

    private weak let ledger: Ledger?
    private let clock: any TetherClock
    private let metrics: LedgerMetrics
    /// Gives the metrics back to the backend's share (``LedgerMetrics/shared(for:)``), once.
    private let release: @Sendable () -> Void
    private let state: Mutex<State>
    /// Where the backend is written to, one write at a time, in order.
    private let writer = DispatchQueue(label: "tether.metrics")
    /// Set on `writer`: an end called from inside a write (a backend's handler) runs there and then.
    private let onWriter = DispatchSpecificKey<Bool>()

    /// The counters count from here on: the zombie count is taken now, before the reporter hears
    /// of any change (a change on another thread may be read before ``start()``).
    init(ledger: Ledger, factory: any MetricsFactory) {
        self.ledger = ledger
        self.clock = ledger.clock
        var state = State()
        state.written.zombies = ledger.counters.zombies
        self.state = Mutex(state)
        (metrics, release) = LedgerMetrics.shared(for: factory)
        writer.setSpecific(key: onWriter, value: true)
    }

    /// Takes the first reading.
    func start() {
        guard let ledger else { return }
        let write = state.withLock { state in read(ledger, into: &state) }
        if write { queueWrite() }
    }

    /// The ledger changed (its `onChange` handler, on the changing thread).
    func ledgerChanged() {
        guard let ledger else { return }
        let now = clock.now
        let (write, deadline) = state.withLock { state -> (Bool, Duration?) in
            switch state.pacer.ledgerChanged(at: now) {
            case .read: (read(ledger, into: &state), nil)
            case .arm(let deadline): (false, deadline)
            case .wait: (false, nil)
            }
        }
        if write { queueWrite() }
        if let deadline { arm(at: deadline) }
    }

    /// The ledger judged an owner leaked (its `onLeak` handler, once per verdict).
    func verdictFound() {
        let write = state.withLock { state -> Bool in
            guard !state.pacer.hasEnded else { return false }
            state.verdicts += 1
            return state.needsWrite()
        }
        if write { queueWrite() }
    }

    /// Stops reporting and takes this reporter's numbers back out of the gauges; the counters
    /// keep what they counted. Waits for a write in progress; nothing is written after it
    /// returns. Idempotent.
    func end() {
        let (timer, first) = state.withLock { state -> (ScheduledAction?, Bool) in
            guard state.pacer.end() else { return (nil, false) }
            state.unwritten = nil
            state.verdicts = 0
            defer { state.timer = nil }
            return (state.timer, true)
        }
        timer?.cancel()
        // A second end, on another thread, waits for the first one's taking back too.
        onTheWriter {
            let (from, to) = state.withLock { state in
                defer { state.written = state.written.gaugesTakenBack }
                return (state.written, state.written.gaugesTakenBack)
            }
            metrics.move(from: from, to: to)
        }
        if first { release() }
    }

    /// Returns once what the reporter has taken is written: for tests, which read the backend.
    func waitUntilWritten() { onTheWriter {} }

    private func arm(at deadline: Duration) {
        let timer = clock.schedule(at: deadline) { [weak self] in self?.timerFired() }
        let stale = state.withLock { state -> ScheduledAction? in
            if state.pacer.hasEnded { return timer }
            state.timer = timer
            return nil
        }
        stale?.cancel()
    }

    private func timerFired() {
        let ledger = self.ledger
        let write = state.withLock { state -> Bool in
            state.timer = nil
            guard state.pacer.timerFired() == .read, let ledger else { return false }
            return read(ledger, into: &state)
        }
        if write { queueWrite() }
    }

    /// Reads the ledger (re-arming its change handlers) and leaves the reading for the queue to
    /// write; whether a write must be queued for it. Under the lock.
    ///
    /// The caller holds `ledger` from before the lock to after it: were the last reference the
    /// one this read loaded from the weak field, the ledger's deinit would run here, under the
    /// lock, and end this reporter (``LedgerRelease``), which takes the lock again.
    private func read(_ ledger: Ledger, into state: inout State) -> Bool {
        guard !state.pacer.hasEnded else { return false }
        state.unwritten = ledger.countersRearmingOnChange()
        state.pacer.read(at: clock.now)
        return state.needsWrite()
    }

    private func queueWrite() {
        writer.async { self.write() }
    }

    /// On the queue: writes what is unwritten until nothing is, the newest reading each time.
    private func write() {
        while let next = state.withLock({ $0.takeUnwritten() }) {
            metrics.move(from: next.from, to: next.to)
            metrics.countVerdicts(next.verdicts)
            state.withLock { $0.written = next.to }
        }
    }

    /// Runs `work` on the queue, after what is queued there — or at once, when called from it.
    private func onTheWriter(_ work: () -> Void) {
        if DispatchQueue.getSpecific(key: onWriter) == true { work() } else { writer.sync(execute: work) }
    }
}

/// Ends a reporter when its ledger is released: held only by the reporter's `onChange` handler,
/// which the ledger drops when it deinitializes (and its cancellation drops too).
final class LedgerRelease: Sendable {
    let reporter: MetricsReporter

    init(_ reporter: MetricsReporter) { self.reporter = reporter }

    deinit { reporter.end() }
}
