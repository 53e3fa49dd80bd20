import Benchmark
import Contention
import Support
import Tether

// Bind and end on 8 and 16 threads at once, on one ledger (Contention/Contention.swift). With the
// ledger on, every thread records into the same ledger; the alternative is the same loop with
// the ledger off. One measured iteration is each thread's 1,000 owners; per operation is the wall
// time over all threads' owners.
func contentionBenchmarks() {
    for threads in [8, 16] {
        for enabled in [true, false] {
            var configuration = budget(scaling: .kilo, seconds: 2)
            // An iteration is 8,000 or 16,000 owners' lives: a few warm-ups are enough.
            configuration.warmupIterations = 2
            Benchmark(
                "bind-and-end/\(threads) threads/Tether sink(boundTo:) ledger \(enabled ? "on" : "off")",
                configuration: configuration
            ) { benchmark in
                let ledger = Ledger(isEnabled: enabled)
                let owners = benchmark.scaledIterations.count
                benchmark.startMeasurement()
                bindAndEnd(owners, on: threads, in: ledger)
                benchmark.stopMeasurement()
                blackHole(ledger.counters)
            }
        }
    }
}
