// swift-tools-version: 6.2
import PackageDescription

// Combine exists on Apple platforms only; everywhere else OpenCombine stands in for it.
// The switch is made here and in `Sources/Tether/Platform/Combine.swift`, nowhere else.
let openCombine: Target.Dependency = .product(
    name: "OpenCombine", package: "OpenCombine",
    condition: .when(platforms: [.linux, .android, .windows, .wasi]))

let package = Package(
    name: "Tether",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Tether", targets: ["Tether"]),
        .library(name: "TetherTesting", targets: ["TetherTesting"]),
        .library(name: "TerminalUI", targets: ["TerminalUI"]),
        .library(name: "TerminalUITesting", targets: ["TerminalUITesting"]),
        .library(name: "TetherInspector", targets: ["TetherInspector"]),
        .library(name: "TetherMetrics", targets: ["TetherMetrics"]),
        .executable(name: "tether-lab", targets: ["tether-lab"]),
        .executable(name: "tether-lint", targets: ["tether-lint"]),
        .plugin(name: "TetherLintCommand", targets: ["TetherLintCommand"]),
        .plugin(name: "TetherLintBuild", targets: ["TetherLintBuild"]),
    ],
    dependencies: [
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
        // For TetherMetricsTests only: a real backend's exposition, read as a server scrapes it.
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // The checker's parser: the release that matches the toolchain's Swift.
        .package(url: "https://github.com/swiftlang/swift-syntax.git", exact: "603.0.1"),
    ],
    targets: [
        // ncurses from the system, found without pkg-config: its flags are ones SwiftPM refuses
        // (a warning on every build), and its library needs none of them. shim.h names the
        // package when the headers are missing. TerminalUI links it, per platform.
        .systemLibrary(name: "CNcurses"),
        .target(
            name: "Tether",
            dependencies: [
                openCombine,
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .target(name: "TetherTesting", dependencies: ["Tether"]),
        // A ledger served on a Unix socket, and the client that reads it. Only this target knows
        // of sockets: Tether stays free of them.
        .target(
            name: "TetherInspector",
            dependencies: [
                "Tether",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]),
        // The ledger reported through swift-metrics. Only this target knows of metrics: Tether stays
        // free of them.
        .target(
            name: "TetherMetrics",
            dependencies: ["Tether", .product(name: "CoreMetrics", package: "swift-metrics")]),
        .target(
            name: "TerminalUI",
            dependencies: ["Tether", "CNcurses"],
            linkerSettings: [
                // Debian's libncurses-dev: the wide-character library is ncursesw. macOS's ncurses
                // (Xcode's command line tools) has the wide-character calls under its plain name.
                .linkedLibrary("ncursesw", .when(platforms: [.linux])),
                .linkedLibrary("ncurses", .when(platforms: [.macOS])),
            ]),
        .target(name: "TerminalUITesting", dependencies: ["TerminalUI"]),
        .target(
            name: "Lab",
            dependencies: ["Tether", "TerminalUI", "TetherInspector"],
            resources: [
                .embedInCode("Resources/attach-help.txt"),
                .embedInCode("Resources/help.txt"),
                .embedInCode("Resources/keymap.txt"),
                .embedInCode("Resources/scenarios.txt"),
                .embedInCode("Resources/scripts/bound-orientation.keys"),
                .embedInCode("Resources/scripts/leaky-orientation.keys"),
                .embedInCode("Resources/scripts/tour.keys"),
            ]),
        .executableTarget(
            name: "tether-lab",
            dependencies: [
                "Lab", "TerminalUI", "TetherInspector",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // What every test target shares: one seeded generator, one bounded wait, the tags, and
        // child processes started without Foundation.Process.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "TetherTests",
            dependencies: [
                "Tether", "TetherTesting", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]),
        .executableTarget(name: "tui-demo", dependencies: ["TerminalUI", "Tether"]),
        .testTarget(
            name: "TerminalUITests",
            dependencies: ["TerminalUI", "TerminalUITesting", "Tether", "tui-demo", "TestSupport"]),
        .testTarget(
            name: "LabTests",
            dependencies: [
                "Lab", "TerminalUI", "TerminalUITesting", "Tether", "TetherInspector", "tether-lab",
                "TestSupport",
            ]),
        // Serves a ledger for the inspector's tests (a second process) and for trying attach by hand.
        .executableTarget(name: "inspector-demo", dependencies: ["TetherInspector", "Tether"]),
        .testTarget(
            name: "TetherInspectorTests",
            dependencies: [
                "TetherInspector", "Tether", "inspector-demo", "TestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]),
        // The README's and the DocC articles' samples, type-checked as pasted against the build.
        .testTarget(name: "DocSampleTests", dependencies: ["TestSupport"]),
        .testTarget(
            name: "TetherMetricsTests",
            dependencies: [
                "TetherMetrics", "Tether", "TestSupport",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]),
        // The static checks: reads source with swift-syntax, knows nothing of Tether's types.
        .target(
            name: "TetherLint",
            dependencies: [
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
            ]),
        .executableTarget(
            name: "tether-lint",
            dependencies: ["TetherLint", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .testTarget(
            name: "TetherLintTests",
            dependencies: ["TetherLint", "tether-lint", "TestSupport"],
            exclude: ["Fixtures"]),
        .plugin(
            name: "TetherLintCommand",
            capability: .command(
                intent: .custom(verb: "tether-lint", description: "Finds unbound tasks and subscriptions"),
                permissions: []),
            dependencies: ["tether-lint"]),
        .plugin(name: "TetherLintBuild", capability: .buildTool(), dependencies: ["tether-lint"]),
    ],
    swiftLanguageModes: [.v6]
)
