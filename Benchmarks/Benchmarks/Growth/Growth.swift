import Benchmark
import OpenCombine
import Support
import Synchronization
import Tether

// What a growth checkpoint costs: `ledger.checkpoint()` over 10,000 live entries, held by 100
// owners (100 entries each, one call site) or by 10,000 owners (one each: the most sites to
// count and follow). One operation = one checkpoint; nothing grows between them, so each pass
// counts every entry and compares every site. The entries are made in `setup`, not measured.

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
                subject.sink { _ in }.store(in: made[index % owners].bag)
            }
        }
        holders.withLock { $0 = made }
        ledger.checkpoint()  // the first pass, which finds every site new
    }

    func empty() { holders.withLock { $0.removeAll() } }
}

/// A long-lived owner.
final class Holder: Sendable {
    let bag = DisposeBag()
    init() { bag.track(self) }
}
