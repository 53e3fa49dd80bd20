import Foundation
import TestSupport
import Testing

/// The built `tether-lab` next to the test bundle (LabTests depends on it, so it is built first).
enum LabBinary {
    static var path: String { ChildProcess.builtProduct("tether-lab") }

    /// Runs the lab with `arguments`, stdin and stdout not terminals, and waits for it.
    static func run(
        _ arguments: [String], environment: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ChildProcess.Result {
        try ChildProcess(path, arguments, environment: environment).finish(sourceLocation: sourceLocation)
    }
}
