// swift-tools-version: 6.2
// The build-tool plugin's fixture: BuildPluginTests copies it beside a link named Tether to the
// package, builds it, and reads the plugin's warnings in the build's output.
import PackageDescription

let package = Package(
    name: "BuildPluginFixture",
    dependencies: [.package(path: "../Tether")],
    targets: [
        .target(name: "Leaky", plugins: [.plugin(name: "TetherLintBuild", package: "Tether")])
    ]
)
