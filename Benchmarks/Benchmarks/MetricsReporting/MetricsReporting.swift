import Benchmark
import OpenCombine
import Prometheus
import Support
import Synchronization
import Tether
import TetherMetrics

// What reporting a ledger through swift-metrics (TetherMetrics) costs the program that binds and
// ends. One sample = one owner's life, as in Lifetimes: made, one subscription stored in its
// tracked bag, released; paced to 10,000 a second (the wait for each 100 µs slot spins and is not
// measured), so the ledger changes all the time and the reporter reads it once a second. The
// reporter writes to swift-prometheus's factory on a private registry, made in the benchmark's
// setup and ended in its teardown; each benchmark runs in a process of its own.

let benchmarks: @Sendable () -> Void = {
    for reporting in [false, true] {
        let ledger = Ledger()
        let pace = Pace(every: .microseconds(100))
        let reporter = Reporting()
        Benchmark(
            "metrics/bind-and-end at 10,000 a second/\(reporting ? "reporting" : "not reporting") ledger on",
            configuration: budget(seconds: 2, iterations: 10_000),
            closure: { benchmark in
                let subject = PassthroughSubject<Int, Never>()
                pace.waitForSlot()
                benchmark.startMeasurement()
                Ledger.$current.withValue(ledger) {
                    blackHole(BagOwner(subject))
                }
                benchmark.stopMeasurement()
            },
            setup: { if reporting { reporter.start(ledger: ledger) } },
            teardown: {
                if reporting { precondition(reporter.ownersReported() != nil, "nothing was reported") }
                reporter.stop()
            })
    }
}

/// A reporter to a private Prometheus registry, for the length of one benchmark. Sendable
/// through its `Mutex`.
final class Reporting: Sendable {
    private struct State {
        var registry: PrometheusCollectorRegistry?
        var token: AnyCancellable?
    }

    private let state = Mutex(State())

    func start(ledger: Ledger) {
        let registry = PrometheusCollectorRegistry()
        let factory = PrometheusMetricsFactory(registry: registry)
        // Made inside the lock: the token is not Sendable on every platform.
        state.withLock { $0 = State(registry: registry, token: ledger.reportMetrics(to: factory)) }
    }

    /// The `tether_owners` line of the exposition, if the reporter wrote it.
    func ownersReported() -> String? {
        let registry = state.withLock { $0.registry }
        return registry?.emitToString().split(separator: "\n").first { $0.hasPrefix("tether_owners ") }
            .map(String.init)
    }

    func stop() {
        state.withLock { state in
            state.token?.cancel()
            state = State()
        }
    }
}
