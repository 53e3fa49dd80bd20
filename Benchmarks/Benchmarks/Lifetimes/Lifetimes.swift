import Benchmark
import OpenCombine
import Support
import Tether

// Binding a subscription to an owner and ending it: the owner is made, one subscription is
// stored in it, the owner ends (is released). One operation = one owner's whole life.

let benchmarks: @Sendable () -> Void = {
    Benchmark(
        "bind-and-end/1 subscription/OpenCombine sink+store+cancel", configuration: budget(scaling: .kilo)
    ) {
        benchmark in
        let subject = PassthroughSubject<Int, Never>()
        for _ in benchmark.scaledIterations {
            blackHole(RawOwner(subject))
        }
    }

    for enabled in [true, false] {
        Benchmark(
            "bind-and-end/1 subscription/Tether DisposeBag ledger \(enabled ? "on" : "off")",
            configuration: budget(scaling: .kilo)
        ) { benchmark in
            // A dedicated ledger, as users get by default (system clock, 300 ms grace period).
            let ledger = Ledger(isEnabled: enabled)
            let subject = PassthroughSubject<Int, Never>()
            Ledger.$current.withValue(ledger) {
                for _ in benchmark.scaledIterations {
                    blackHole(BagOwner(subject))
                }
            }
            blackHole(ledger.counters)
        }
    }

    contentionBenchmarks()
}

/// The plain Combine way: a set of cancellables, cancelled when the owner deinitializes.
final class RawOwner {
    var cancellables = Set<AnyCancellable>()
    var received = 0

    init(_ events: PassthroughSubject<Int, Never>) {
        events.sink { [unowned self] in received &+= $0 }.store(in: &cancellables)
    }
}
