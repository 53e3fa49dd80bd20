import CoreMetrics
import Synchronization
import Tether

#if TETHER_TSAN
// As in Tether: under TSan the lock is the pthread-backed one, whose calls TSan can see.
typealias Mutex<Value> = SanitizerMutex<Value>
#endif

/// One ``Tether/Ledger/reportMetrics(to:)``: reads its ledger when it changes, paced by a
/// ``ReportPacer``, and moves the metrics by what changed since the last reading.
///
/// The lock is held while the metrics are written — the one call out under it, to a backend's
/// handlers, which never call back — so that readings are written in the order they were taken
/// (an older one written last would leave a gauge wrong until the next change), and so that
/// ``end()`` from another thread waits for a reading in progress: nothing is written after it
/// returns. The timer is armed and cancelled after unlocking.
final class MetricsReporter: Sendable {
    /// The least time between two readings of a changing ledger.
    static let interval: Duration = .seconds(1)

    private struct State {
        var pacer = ReportPacer(interval: MetricsReporter.interval)
        /// What this reporter has added to the gauges, and the zombie count it has counted to.
        var reported = LedgerReading()
        var timer: ScheduledAction?
    }

    private weak let ledger: Ledger?
    private let clock: any TetherClock
    private let metrics: LedgerMetrics
    /// Gives the metrics back to the backend's share (``LedgerMetrics/shared(for:)``), once.
    private let release: @Sendable () -> Void
    private let state: Mutex<State>

    /// The counters count from here on: the zombie count is taken now, before the reporter hears
    /// of any change (a change on another thread may be read before ``start()``).
    init(ledger: Ledger, factory: any MetricsFactory) {
        self.ledger = ledger
        self.clock = ledger.clock
        var state = State()
        state.reported.zombies = ledger.counters.zombies
        self.state = Mutex(state)
        (metrics, release) = LedgerMetrics.shared(for: factory)
    }

    /// Takes the first reading.
    func start() {
        guard let ledger else { return }
        state.withLock { state in read(ledger, into: &state) }
    }

    /// The ledger changed (its `onChange` handler, on the changing thread).
    func ledgerChanged() {
        guard let ledger else { return }
        let now = clock.now
        let deadline = state.withLock { state -> Duration? in
            switch state.pacer.ledgerChanged(at: now) {
            case .read:
                read(ledger, into: &state)
                return nil
            case .arm(let deadline):
                return deadline
            case .wait:
                return nil
            }
        }
        if let deadline { arm(at: deadline) }
    }

    /// The ledger judged an owner leaked (its `onLeak` handler, once per verdict).
    func verdictFound() {
        state.withLock { state in
            guard !state.pacer.hasEnded else { return }
            metrics.countVerdict()
        }
    }

    /// Stops reporting and takes this reporter's numbers back out of the gauges; the counters
    /// keep what they counted. Nothing is written after it returns. Idempotent.
    func end() {
        let ended = state.withLock { state -> (timer: ScheduledAction?, now: Bool) in
            guard state.pacer.end() else { return (nil, false) }
            let kept = state.reported.gaugesTakenBack
            metrics.move(from: state.reported, to: kept)
            state.reported = kept
            defer { state.timer = nil }
            return (state.timer, true)
        }
        ended.timer?.cancel()
        if ended.now { release() }
    }

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
        state.withLock { state in
            state.timer = nil
            guard state.pacer.timerFired() == .read, let ledger else { return }
            read(ledger, into: &state)
        }
    }

    /// Reads the ledger (re-arming its change handlers) and moves the metrics. Under the lock.
    ///
    /// The caller holds `ledger` from before the lock to after it: were the last reference the
    /// one this read loaded from the weak field, the ledger's deinit would run here, under the
    /// lock, and end this reporter (``LedgerRelease``), which takes the lock again.
    private func read(_ ledger: Ledger, into state: inout State) {
        guard !state.pacer.hasEnded else { return }
        let reading = LedgerReading(taking: ledger)
        metrics.move(from: state.reported, to: reading)
        state.reported = reading
        state.pacer.read(at: clock.now)
    }
}

/// Ends a reporter when its ledger is released: held only by the reporter's `onChange` handler,
/// which the ledger drops when it deinitializes (and its cancellation drops too).
final class LedgerRelease: Sendable {
    let reporter: MetricsReporter

    init(_ reporter: MetricsReporter) { self.reporter = reporter }

    deinit { reporter.end() }
}
