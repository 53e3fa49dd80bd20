import Benchmark

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
