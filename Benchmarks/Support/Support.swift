import Benchmark
import Synchronization

/// What every Tether benchmark measures: wall-clock time (the ratio report compares p50s) and
/// mallocs (counted by the malloc interposer). `.cpuTotal` is left out: on Linux it ticks in
/// 10 ms steps, coarser than most of these measurements.
public let tetherMetrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal]

/// A configuration that keeps `make bench` within its time budget.
///
/// - Parameters:
///   - scaling: How many operations one measured iteration does (`benchmark.scaledIterations`);
///     results are reported per operation.
///   - seconds: The most time the benchmark may take.
///   - iterations: The most measured iterations.
public func budget(
    scaling: BenchmarkScalingFactor = .one, seconds: Int = 1, iterations: Int = 10_000
) -> Benchmark.Configuration {
    .init(
        metrics: tetherMetrics, timeUnits: .nanoseconds, warmupIterations: 10, scalingFactor: scaling,
        maxDuration: .seconds(seconds), maxIterations: iterations)
}

/// Slots `every` apart: `waitForSlot()` returns at the next one, spinning (a sleep wakes up tens
/// of microseconds late). A caller that fell behind starts afresh from now, without catching up.
public final class Pace: Sendable {
    private let interval: Duration
    private let next = Mutex<ContinuousClock.Instant?>(nil)

    public init(every interval: Duration) {
        self.interval = interval
    }

    public func waitForSlot() {
        let now = ContinuousClock.now
        let slot = next.withLock { next in
            let slot = max(next ?? now, now)
            next = slot + interval
            return slot
        }
        while ContinuousClock.now < slot {}
    }
}
