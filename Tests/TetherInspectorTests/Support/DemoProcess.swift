import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `inspector-demo` serving a ledger in a process of its own, driven through its stdin (`bind N`,
/// `end`, `note TEXT`, `stop`, `exit`); it answers `ok` on stdout after each command.
final class DemoProcess {
    /// The built `inspector-demo`, next to the test bundle (the test target depends on it).
    static var binary: String {
        let bin = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [
            bin, bin.deletingLastPathComponent(),
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent(),
        ]
        for directory in candidates {
            let path = directory.appendingPathComponent("inspector-demo").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return bin.appendingPathComponent("inspector-demo").path
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let received = Output()
    private var commands = 0

    private final class Output: Sendable {
        let text = Mutex("")
    }

    var pid: pid_t { process.processIdentifier }
    var text: String { received.text.withLock { $0 } }

    /// Starts serving at `path`; returns once the socket is in place (or the process ended).
    convenience init(serving path: String) async throws {
        try self.init(starting: path)
        await waitForStart()
    }

    private let path: String

    /// Starts the process, serving at `path`, without waiting for it: ``waitForStart()`` does.
    init(starting path: String) throws {
        self.path = path
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = [path]
        process.standardInput = input
        process.standardOutput = output
        let received = received
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            received.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
    }

    /// Waits until the process serves, or has ended.
    func waitForStart() async {
        await waitUntil("the demo serving") { text.contains("serving \(path)") || !process.isRunning }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        output.fileHandleForReading.readabilityHandler = nil
    }

    /// Sends a command and waits for its `ok`.
    func send(_ command: String) async {
        commands += 1
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
        let expected = commands
        await waitUntil("ok for \(command)") { text.components(separatedBy: "ok\n").count - 1 >= expected }
    }

    /// Sends a command after which the process exits, and waits for the exit.
    func sendExit(_ command: String = "exit") async -> Int32 {
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
        return await waitForExit()
    }

    func deliver(signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    func waitForExit() async -> Int32 {
        await waitUntil("the demo's exit") { !process.isRunning }
        return process.terminationStatus
    }

    /// Voluntary context switches of every thread of the process, from /proc: how often its
    /// threads went to sleep, that is, how often they had woken up. Linux only; nil elsewhere.
    var voluntaryContextSwitches: Int? {
        let tasks = "/proc/\(pid)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks) else { return nil }
        var total = 0
        for thread in threads {
            guard let status = try? String(contentsOfFile: "\(tasks)/\(thread)/status", encoding: .utf8)
            else { continue }
            let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
            total +=
                line.flatMap {
                    Int($0.dropFirst("voluntary_ctxt_switches:".count).trimmingCharacters(in: .whitespaces))
                } ?? 0
        }
        return total
    }

    /// How many threads the process has.
    var threadCount: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? 0
    }
}
