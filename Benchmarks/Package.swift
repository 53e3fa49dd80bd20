// swift-tools-version: 6.2
import PackageDescription

// Built only by `make bench` (see README.md). Each suite is an executable under
// Benchmarks/<Suite>/ that package-benchmark's plugin discovers and runs.
let package = Package(
    name: "TetherBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Tether", path: ".."),
        .package(
            url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    ],
    targets: [
        .target(
            name: "Support",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Tether", package: "Tether"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            path: "Support"),
        // Bind and end on many threads at once: the Lifetimes suite's and the profile's.
        .target(
            name: "Contention",
            dependencies: [
                .product(name: "Tether", package: "Tether"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            path: "Contention"),
        suite("Delivery"),
        suite("Lifetimes", extra: ["Contention"]),
        suite("Tasks"),
        suite("Growth"),
        suite("Inspector", extra: [.product(name: "TetherInspector", package: "Tether")]),
        // Not "Metrics": swift-metrics has a target of that name.
        suite(
            "MetricsReporting",
            extra: [
                .product(name: "TetherMetrics", package: "Tether"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]),
        // As the root package's CNcurses: ncurses without pkg-config, whose flags SwiftPM refuses.
        // Its users also use TerminalUI, which links the library for each platform.
        .systemLibrary(name: "CBenchCurses", path: "CBenchCurses"),
        suite("Frames", extra: ["CBenchCurses", .product(name: "TerminalUI", package: "Tether")]),
        // Not a suite: replays one operation for callgrind (README.md, "Profiling a miss").
        .executableTarget(
            name: "tether-bench-profile",
            dependencies: [
                "CBenchCurses",
                "Contention",
                .product(name: "Tether", package: "Tether"),
                .product(name: "TerminalUI", package: "Tether"),
                .product(name: "TetherInspector", package: "Tether"),
                .product(name: "TetherMetrics", package: "Tether"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            path: "Profile"),
    ],
    swiftLanguageModes: [.v6]
)

/// A benchmark suite: an executable under Benchmarks/<name>/ that the plugin runs.
func suite(_ name: String, extra: [Target.Dependency] = []) -> Target {
    .executableTarget(
        name: name,
        dependencies: extra + [
            "Support",
            .product(name: "Tether", package: "Tether"),
            .product(name: "Benchmark", package: "benchmark"),
            .product(name: "OpenCombine", package: "OpenCombine"),
        ],
        path: "Benchmarks/\(name)",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")])
}
