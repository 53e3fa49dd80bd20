import Foundation
import TestSupport
import Testing

/// The build-tool plugin on a package that uses it: its findings are warnings in `swift build`'s
/// output, and the build still succeeds. The fixture builds in `.build/lint-plugin-fixture`,
/// kept between runs, so only the first run builds swift-syntax for it.
@Suite struct BuildPluginTests {
    @Test func findingsAreWarningsInTheBuildOutputAndTheBuildSucceeds() async throws {
        let manager = FileManager.default
        let place = packageRoot + "/.build/lint-plugin-fixture"
        let fixture = place + "/Fixture"
        try? manager.removeItem(atPath: fixture + "/Sources")
        try manager.createDirectory(atPath: fixture + "/Sources/Leaky", withIntermediateDirectories: true)
        let source = packageRoot + "/Tests/TetherLintTests/Fixtures/BuildPlugin"
        for file in ["Package.swift", "Sources/Leaky/Feed.swift"] {
            try? manager.removeItem(atPath: fixture + "/" + file)
            try manager.copyItem(atPath: source + "/" + file, toPath: fixture + "/" + file)
        }
        // The fixture names the package `Tether`, as a user's manifest does: a link of that name.
        if (try? manager.destinationOfSymbolicLink(atPath: place + "/Tether")) != packageRoot {
            try? manager.removeItem(atPath: place + "/Tether")
            try manager.createSymbolicLink(atPath: place + "/Tether", withDestinationPath: packageRoot)
        }
        // The first build compiles swift-syntax for the fixture: minutes, not seconds.
        let build = try await ChildProcess.run(
            "/usr/bin/env", ["swift", "build", "--package-path", fixture], within: .seconds(1800))
        let output = build.stdout + build.stderr
        #expect(build.status == 0, "\(output)")
        // An absolute path, which Xcode and editors open whatever the build's directory.
        let warning = output.split(separator: "\n").first {
            $0.hasPrefix(fixture + "/Sources/Leaky/Feed.swift:5:9: warning:")
        }
        #expect(warning?.hasSuffix("(unstored-task)") == true, "\(output)")
    }
}
