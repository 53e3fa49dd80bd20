import Foundation
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
    private let child: ChildProcess
    private let path: String
    private var commands = 0

    var pid: pid_t { child.pid }
    var text: String { child.output }

    /// Starts serving at `path`; returns once the socket is in place (or the process ended).
    convenience init(serving path: String) async throws {
        try self.init(starting: path)
        await waitForStart()
    }

    /// Starts the process, serving at `path`, without waiting for it: ``waitForStart()`` does.
    init(starting path: String) throws {
        self.path = path
        child = try ChildProcess(ChildProcess.builtProduct("inspector-demo"), [path], input: true)
    }

    /// Waits until the process serves, or has ended.
    func waitForStart() async {
        await waitUntil("the demo serving") { text.contains("serving \(path)") || !child.isRunning }
    }

    /// Sends a command and waits for its `ok`.
    func send(_ command: String) async {
        commands += 1
        child.send(command + "\n")
        let expected = commands
        await waitUntil("ok for \(command)") { text.components(separatedBy: "ok\n").count - 1 >= expected }
    }

    /// Sends a command after which the process exits, and waits for the exit.
    func sendExit(_ command: String = "exit") async -> Int32 {
        child.send(command + "\n")
        return await waitForExit()
    }

    func deliver(signal: Int32) {
        child.send(signal: signal)
    }

    func waitForExit() async -> Int32 {
        await waitUntil("the demo's exit") { !child.isRunning }
        return child.waitForExit()
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
