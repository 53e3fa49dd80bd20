import Prometheus
import TestSupport
import Testing
import Tether
import TetherMetrics

/// The ledger as a Prometheus server scrapes it: swift-prometheus's factory on a private
/// registry, read through its text exposition.
@Suite struct PrometheusExpositionTests {
    /// An owner that starts a task without storing it: ended, it stays alive with its task.
    private final class Forgot {
        let bag = DisposeBag()
        var task: Task<Void, Never>?

        init(clock: ManualClock) {
            bag.track(self)
            task = Task.attributed(to: bag) { try? await clock.sleep(for: .seconds(1_000_000)) }
        }
    }

    /// The exposition's samples: series (name and labels, as written) → value.
    private static func samples(of registry: PrometheusCollectorRegistry) -> [String: Double] {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        var samples: [String: Double] = [:]
        for line in String(decoding: buffer, as: UTF8.self).split(separator: "\n")
        where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...])
            else { continue }
            samples[String(line[..<space])] = value
        }
        return samples
    }

    /// The exposition's `# TYPE` lines: name → type.
    private static func types(in registry: PrometheusCollectorRegistry) -> [String: String] {
        var types: [String: String] = [:]
        for line in registry.emitToString().split(separator: "\n") where line.hasPrefix("# TYPE ") {
            let words = line.split(separator: " ")
            types[String(words[2])] = String(words[3])
        }
        return types
    }

    @Test func theExpositionCarriesTheLedgersNumbers() async {
        let fixture = MetricsFixture(gracePeriod: .seconds(10))
        let registry = PrometheusCollectorRegistry()
        let reporting = fixture.report(to: PrometheusMetricsFactory(registry: registry))
        var forgot: Forgot? = fixture.run { Forgot(clock: fixture.clock) }
        forgot?.bag.end()
        fixture.passInterval()
        reporting.written()
        #expect(Self.samples(of: registry)["tether_owners_ending"] == 1)

        fixture.passGracePeriod()
        reporting.written()
        let samples = Self.samples(of: registry)
        #expect(samples["tether_owners"] == 1)
        #expect(samples["tether_bindings{kind=\"task\"}"] == 1)
        #expect(samples["tether_bindings{kind=\"subscription\"}"] == 0)
        #expect(samples["tether_owners_ending"] == 0)
        #expect(samples["tether_leaked_owners"] == 1)
        #expect(samples["tether_leak_verdicts_total"] == 1)
        #expect(samples["tether_zombie_deliveries_total"] == 0)
        #expect(samples["tether_growing_sites"] == 0)
        #expect(samples.count == 10)  // seven metrics: tether_bindings is four series
        #expect(samples.keys.allSatisfy { $0.hasPrefix("tether_") })
        #expect(
            Self.types(in: registry) == [
                "tether_owners": "gauge", "tether_owners_ending": "gauge", "tether_bindings": "gauge",
                "tether_leaked_owners": "gauge", "tether_growing_sites": "gauge",
                "tether_leak_verdicts_total": "counter", "tether_zombie_deliveries_total": "counter",
            ])

        // Released late: the gauges go back to 0, the verdict stays counted.
        forgot?.task?.cancel()
        forgot = nil
        await waitUntil { fixture.ledger.counters.tasks == 0 }
        fixture.passInterval()
        reporting.written()
        let after = Self.samples(of: registry)
        #expect(after["tether_owners"] == 0)
        #expect(after["tether_bindings{kind=\"task\"}"] == 0)
        #expect(after["tether_leaked_owners"] == 0)
        #expect(after["tether_leak_verdicts_total"] == 1)
        _ = forgot
        reporting.cancel()
    }
}
