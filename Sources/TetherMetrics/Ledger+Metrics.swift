import CoreMetrics
import Tether

extension Ledger {
    /// Reports this ledger through swift-metrics, to the backend the program bootstrapped (or to
    /// `factory`), until the returned token is cancelled or released, or the ledger is released.
    ///
    /// Gauges `tether_owners`, `tether_owners_ending`, `tether_bindings` (dimension `kind`:
    /// `subscription`, `task`, `observer`, `binding`), `tether_leaked_owners` and
    /// `tether_growing_sites`; counters `tether_leak_verdicts_total` (one per leak verdict, as
    /// `onLeak` is called: a late release does not take it back) and
    /// `tether_zombie_deliveries_total`. The counters count from the moment reporting starts.
    ///
    /// The gauges follow the ledger's changes: at once after a quiet spell, then at most once a
    /// second while changes go on, and never while nothing changes. Each reporter adds its
    /// ledger's numbers to the gauges, so the ledgers of one process reported to one backend add
    /// up; when reporting ends, the reporter takes its numbers back out of the gauges. Report a
    /// ledger once per backend: a second reporter to the same backend counts it twice. (The
    /// reporters to one backend object share its meters; a backend that is a value adds up when
    /// it keeps one meter per name and dimensions, as swift-prometheus 2's does.)
    ///
    /// ```swift
    /// let registry = PrometheusCollectorRegistry()
    /// MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
    /// let reporting = Ledger.shared.reportMetrics()
    /// ```
    ///
    /// Thread-safe. A reading is taken on the thread that changed the ledger (or on its clock's),
    /// and written to the backend on a serial queue of the reporter's own, in the order readings
    /// were taken: a slow backend holds up no thread of the app. A cancel from any thread waits
    /// for a write in progress, and nothing is written after it returns. The reporter holds the
    /// ledger weakly.
    ///
    /// - Parameter factory: The backend; `MetricsSystem.factory` by default.
    /// - Returns: The token that ends the reporting.
    public func reportMetrics(to factory: any MetricsFactory = MetricsSystem.factory) -> AnyCancellable {
        startReporting(to: factory).token
    }

    /// ``reportMetrics(to:)``, and the reporter behind its token.
    func startReporting(to factory: any MetricsFactory) -> (reporter: MetricsReporter, token: AnyCancellable)
    {
        let reporter = MetricsReporter(ledger: self, factory: factory)
        let release = LedgerRelease(reporter)
        // Registered before the first reading: a change after it calls the handler.
        let changes = onChange { release.reporter.ledgerChanged() }
        let verdicts = onLeak { _ in reporter.verdictFound() }
        reporter.start()
        let token = AnyCancellable {
            reporter.end()
            changes.cancel()
            verdicts.cancel()
        }
        return (reporter, token)
    }
}
