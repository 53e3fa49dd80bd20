import Foundation
import TestSupport
import Testing

/// A folder of files made for one test under the system's temporary folder, removed at deinit.
final class TemporaryTree {
    let path: String

    init(_ files: [String: String] = [:]) throws {
        path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("tether-lint-\(UUID().uuidString)").path
        for (name, text) in files { try write(name, Data(text.utf8)) }
    }

    func write(_ name: String, _ data: Data) throws {
        let url = URL(fileURLWithPath: path).appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    func read(_ name: String) throws -> String {
        try String(contentsOfFile: path + "/" + name, encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// The built `tether-lint`, run in `directory` with `arguments`.
enum LintBinary {
    static var path: String { ChildProcess.builtProduct("tether-lint") }

    static func run(
        _ arguments: [String], in directory: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ChildProcess.Result {
        let quoted = ([path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        return try ChildProcess(
            "/bin/sh", ["-c", "cd '\(directory)' && exec " + quoted.joined(separator: " ")]
        )
        .finish(sourceLocation: sourceLocation)
    }
}

/// A class whose loop is never cancelled: one `unstored-task` finding at line 3.
let leakyFeed = """
    import Tether
    final class Feed {
        var cancellables = Set<AnyCancellable>()
        init(updates: AsyncStream<Int>) {
            Task { for await _ in updates {} }
        }
    }

    """
