import Benchmark
import OpenCombine
import Support
import Synchronization
import Tether

// What a growth checkpoint costs; one operation = one checkpoint. `checkpoint/10000 live entries`:
// `ledger.checkpoint()` over 10,000 live entries, held by 100 owners (100 entries each, one call
// site) or by 10,000 owners (one each); nothing changes between them. `checkpoint/1000000 owners`:
// over a million owners with a subscription each, after 100 other owners bound once and ended
// (made before the measurement, not measured): the sites a checkpoint reads. The long-lived
// owners are made in `setup`, which also takes the first checkpoint, not measured.

let benchmarks: @Sendable () -> Void = {
    for owners in [100, 10_000] {
        let population = Population(entries: 10_000, owners: owners)
        Benchmark(
            "checkpoint/10000 live entries, \(owners) owners/Tether ledger on",
            configuration: budget(seconds: 2, iterations: 1_000),
            closure: { benchmark in
                for _ in benchmark.scaledIterations { population.ledger.checkpoint() }
            },
            setup: { population.fill() },
            teardown: { population.empty() })
    }
    let million = Population(entries: 1_000_000, owners: 1_000_000)
    Benchmark(
        "checkpoint/1000000 owners, 100 sites touched/Tether ledger on",
        configuration: budget(seconds: 2, iterations: 1_000),
        closure: { benchmark in
            million.touch(100)
            benchmark.startMeasurement()
            million.ledger.checkpoint()
            benchmark.stopMeasurement()
        },
        setup: { million.fill() },
        teardown: { million.empty() })
}

/// Owners that live as long as the benchmark, each with its share of live subscriptions.
final class Population: Sendable {
    let ledger = Ledger()
    private let entries: Int
    private let owners: Int
    private let subject = Mutex(PassthroughSubject<Int, Never>())
    private let holders = Mutex<[Holder]>([])

    init(entries: Int, owners: Int) {
        self.entries = entries
        self.owners = owners
    }

    func fill() {
        let made = Ledger.$current.withValue(ledger) { (0..<owners).map { _ in Holder() } }
        subject.withLock { subject in
            for index in 0..<entries {
                subject.sink { _ in }.store(boundTo: made[index % owners].bag)
            }
        }
        holders.withLock { $0 = made }
        ledger.checkpoint()  // the first pass, which finds every site new
    }

    func empty() { holders.withLock { $0.removeAll() } }

    /// Makes and ends `count` owners with a subscription each: as many sites touched.
    func touch(_ count: Int) {
        subject.withLock { subject in
            Ledger.$current.withValue(ledger) {
                for _ in 0..<count { subject.sink { _ in }.store(boundTo: Holder().bag) }
            }
        }
    }
}

/// A long-lived owner.
final class Holder: Sendable {
    let bag = DisposeBag()
    init() { bag.track(self) }
}
