import Benchmark
import Support
import Tether

// A loop over an AsyncStream, per element: `forEach(boundTo:)` ÷ a bare `for await` in a task
// stored in the same kind of bag. The elements are yielded from the benchmark's task and the
// loop's body ticks a countdown; measured from the first yield until the body has seen the last.
func forEachBenchmarks() {
    Benchmark("per-element/1000 elements/for await in a stored Task", configuration: budget(scaling: .kilo)) {
        benchmark async in
        let owner = NamedTaskOwner(ledger: Ledger())
        await measureElements(benchmark) { values, ran in
            Task {
                for await _ in values { ran.tick() }
            }.store(boundTo: owner.bag)
        }
        owner.bag.end()
    }

    let ledger = Ledger()
    Benchmark(
        "per-element/1000 elements/Tether forEach(boundTo:) ledger on", configuration: budget(scaling: .kilo)
    ) { benchmark async in
        let owner = NamedTaskOwner(ledger: ledger)
        await measureElements(benchmark) { values, ran in
            values.forEach(boundTo: owner.bag) { _ in ran.tick() }
        }
        owner.bag.end()
        blackHole(ledger.counters)
    }
}

/// One sample of a loop-per-element pair: `loop` starts a loop over a stream whose body ticks
/// the countdown it is given; the benchmark's elements are yielded, and the sample ends when the
/// body has seen them all.
func measureElements(
    _ benchmark: Benchmark, loop: (AsyncStream<Int>, Countdown) -> Void
) async {
    let count = benchmark.scaledIterations.count
    let (values, feed) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
    let (done, finished) = AsyncStream.makeStream(of: Void.self)
    loop(values, Countdown(count) { finished.yield() })
    var waiter = done.makeAsyncIterator()
    benchmark.startMeasurement()
    for value in 0..<count { feed.yield(value) }
    _ = await waiter.next()
    benchmark.stopMeasurement()
    feed.finish()
}
