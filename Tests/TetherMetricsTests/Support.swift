import CoreMetrics
import MetricsTestKit
import Synchronization
import Testing
import Tether

@testable import TetherMetrics

#if TETHER_TSAN
// Under `make tsan`, the tests' own locks are the pthread-backed one too (see TetherTests).
typealias Mutex<Value> = SanitizerMutex<Value>
#endif

/// A reporting the test can wait for: its backend is written on a queue of the reporter's own.
struct Reporting {
    let reporter: MetricsReporter
    let token: AnyCancellable

    init(_ ledger: Ledger, to factory: any MetricsFactory) {
        (reporter, token) = ledger.startReporting(to: factory)
    }

    /// Returns once what the reporter has read is written to its backend.
    func written() { reporter.waitUntilWritten() }

    func cancel() { token.cancel() }
}

/// The reporters a fixture started.
final class Reporters: Sendable {
    private let list = Mutex<[MetricsReporter]>([])

    func add(_ reporter: MetricsReporter) { list.withLock { $0.append(reporter) } }

    var all: [MetricsReporter] { list.withLock { $0 } }
}

/// A ledger on a manual clock, reported to a test backend of its own: tests run in parallel.
/// What it reads of the backend, it reads once the reporters' writes are done.
struct MetricsFixture {
    let clock = ManualClock()
    let ledger: Ledger
    let metrics = TestMetrics()
    private let reporters = Reporters()

    /// - Parameter gracePeriod: Long by default, so that reading intervals pass while an owner
    ///   waits for its verdict.
    init(gracePeriod: Duration = .seconds(60)) {
        ledger = Ledger(clock: clock, gracePeriod: gracePeriod)
    }

    func run<R>(_ body: () throws -> R) rethrows -> R {
        try Ledger.$current.withValue(ledger) { try body() }
    }

    func report() -> AnyCancellable { report(to: metrics).token }

    /// Reports the ledger to `factory`; the fixture waits for its writes too.
    func report(to factory: any MetricsFactory) -> Reporting {
        let reporting = Reporting(ledger, to: factory)
        reporters.add(reporting.reporter)
        return reporting
    }

    /// Returns once what the fixture's reporters have read is written.
    func written() {
        for reporter in reporters.all { reporter.waitUntilWritten() }
    }

    /// Lets a reporter's interval pass: a change since its last reading is read now.
    func passInterval() { clock.advance(by: .seconds(1)) }

    /// Lets the grace period pass, running the verdicts that fall due.
    func passGracePeriod() { clock.advance(by: ledger.gracePeriod) }

    /// A gauge's value now; 0 when it was never moved.
    func gauge(_ label: String, kind: String? = nil) -> Double {
        written()
        let dimensions = kind.map { [("kind", $0)] } ?? []
        return (try? metrics.expectMeter(label, dimensions))?.lastValue ?? 0
    }

    /// Every value a gauge took, in order.
    func gaugeHistory(_ label: String, kind: String? = nil) -> [Double] {
        written()
        let dimensions = kind.map { [("kind", $0)] } ?? []
        return (try? metrics.expectMeter(label, dimensions))?.values ?? []
    }

    /// A counter's total.
    func counter(_ label: String) -> Int64 {
        written()
        return metrics.counterTotal(label: label)
    }

    /// Every value every metric was given, in order: equal twice when nothing was written between.
    var everyValueWritten: [String] {
        written()
        return metrics.meters.map { "\($0.label) \($0.dimensions) \($0.values)" }.sorted()
            + metrics.counters.map { "\($0.label) \($0.values)" }.sorted()
    }

    /// The numbers a dashboard shows, in one value: every gauge and counter.
    var shown: Shown {
        Shown(
            owners: gauge("tether_owners"), ending: gauge("tether_owners_ending"),
            subscriptions: gauge("tether_bindings", kind: "subscription"),
            tasks: gauge("tether_bindings", kind: "task"),
            observers: gauge("tether_bindings", kind: "observer"),
            bindings: gauge("tether_bindings", kind: "binding"),
            leaked: gauge("tether_leaked_owners"), growing: gauge("tether_growing_sites"),
            verdicts: counter("tether_leak_verdicts_total"),
            zombies: counter("tether_zombie_deliveries_total"))
    }
}

/// Every metric of a reporter at one moment, for whole-state assertions.
struct Shown: Equatable, CustomStringConvertible {
    var owners = 0.0
    var ending = 0.0
    var subscriptions = 0.0
    var tasks = 0.0
    var observers = 0.0
    var bindings = 0.0
    var leaked = 0.0
    var growing = 0.0
    var verdicts: Int64 = 0
    var zombies: Int64 = 0

    var description: String {
        "owners \(owners) ending \(ending) subscriptions \(subscriptions) tasks \(tasks) "
            + "observers \(observers) bindings \(bindings) leaked \(leaked) growing \(growing) "
            + "verdicts \(verdicts) zombies \(zombies)"
    }
}

/// An owner with nothing in its bag.
final class Plain {
    let bag = DisposeBag()
    init() { bag.track(self) }
}

/// A screen's model: one owner with a bound subscription, task and observer.
final class Screen {
    let bag = DisposeBag()

    init(events: PassthroughSubject<Int, Never>, orientation: LiveData<Int>, clock: ManualClock) {
        bag.track(self)
        events.sink(boundTo: bag) { _ in }
        Task(boundTo: bag) { try? await clock.sleep(for: .seconds(1_000_000)) }  // until cancelled
        orientation.add(observer: self, disposeBag: bag) { _ in }
    }
}

/// An owner that keeps a subscription attributed to it but not bound: the leak a test makes.
final class Forgetful {
    let bag = DisposeBag()
    var subscription: AnyCancellable?

    init(events: PassthroughSubject<Int, Never>) {
        bag.track(self)
        subscription = events.sink(attributedTo: bag) { _ in }
    }
}

/// A long-lived owner that collects one more subscription each time `collect` runs: growth.
final class Session {
    let bag = DisposeBag()

    init() { bag.track(self) }

    func collect(_ events: PassthroughSubject<Int, Never>) { events.sink(boundTo: bag) { _ in } }
}

/// A backend as many were before swift-metrics had meters: counters and recorders (a gauge is
/// the last value recorded), one per label and dimensions, and no `makeMeter` of its own — so
/// swift-metrics gives each `Meter` an accumulating total over the recorder.
final class RecorderOnlyBackend: MetricsFactory, Sendable {
    final class Gauge: RecorderHandler, Sendable {
        let value = Mutex<Double>(0)
        func record(_ value: Int64) { self.value.withLock { $0 = Double(value) } }
        func record(_ value: Double) { self.value.withLock { $0 = value } }
    }

    final class Count: CounterHandler, Sendable {
        let value = Mutex<Int64>(0)
        func increment(by amount: Int64) { value.withLock { $0 += amount } }
        func reset() { value.withLock { $0 = 0 } }
    }

    final class NoTimer: TimerHandler, Sendable {
        func recordNanoseconds(_ duration: Int64) {}
    }

    private let gauges = Mutex<[String: Gauge]>([:])
    private let counters = Mutex<[String: Count]>([:])

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        counters.withLock { Self.one(in: &$0, label, dimensions, made: Count.init) }
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        gauges.withLock { Self.one(in: &$0, label, dimensions, made: Gauge.init) }
    }

    /// The handler of `label` and `dimensions` in `table`, made on the first request.
    private static func one<Handler>(
        in table: inout [String: Handler], _ label: String, _ dimensions: [(String, String)],
        made make: () -> Handler
    ) -> Handler {
        let key = "\(label) \(dimensions)"
        if let handler = table[key] { return handler }
        let handler = make()
        table[key] = handler
        return handler
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler { NoTimer() }
    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}

    /// The gauge's last value; nil when it was never written.
    func gauge(_ label: String) -> Double? {
        gauges.withLock { $0["\(label) []"]?.value.withLock { $0 } }
    }
}
