import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program the tests run as a child, with pipes for what they write to it and read from it.
///
/// Started with `posix_spawn` and read with plain non-blocking reads, so a test process holds
/// no Dispatch source for its children (`Foundation.Process` and `readabilityHandler` do, and
/// on Linux a source whose descriptor is closed and reused can crash libdispatch's event loop).
/// Not `Sendable`: use it from one task. A child the test did not wait for is killed at deinit.
public final class ChildProcess {
    public struct Result: Sendable {
        /// The exit code, or 128 + the signal that ended it, as a shell reports it.
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    public let pid: pid_t
    /// The write end of the child's standard input; -1 once closed, or when it reads /dev/null.
    private var input: Int32
    private var stdout: Capture
    private var stderr: Capture
    private var status: Int32?

    /// Starts `executable`. Standard input is a pipe when `input` is true, else /dev/null; so
    /// is each output when it is not captured. The child has the test's environment, with
    /// `environment`'s variables set over it.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        input takesInput: Bool = false, captureOutput: Bool = true, captureErrors: Bool = true
    ) throws {
        // The child's standard streams that are pipes, by descriptor: the test's end and the
        // child's. Every descriptor made here is close-on-exec, so children started at the same
        // time by other tests hold no end of these pipes (which would keep an end-of-file away).
        var pipes: [Int32: (ours: Int32, child: Int32)] = [:]
        do {
            if takesInput { pipes[0] = try Self.pipe(childReads: true) }
            if captureOutput { pipes[1] = try Self.pipe() }
            if captureErrors { pipes[2] = try Self.pipe() }
        } catch {
            for pipe in pipes.values {
                close(pipe.ours)
                close(pipe.child)
            }
            throw error
        }

        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in 0...2 {
            if let pipe = pipes[descriptor] {
                posix_spawn_file_actions_adddup2(&actions, pipe.child, descriptor)
            } else {
                posix_spawn_file_actions_addopen(
                    &actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
            }
        }
        // The child holds no other descriptor of the test process: a socket that a test closes
        // must end its connection even while a long child (a build) runs. Sockets are not
        // close-on-exec on Linux (SwiftNIO's neither), so the child closes them; on Darwin the
        // attribute below does it.
        #if canImport(Glibc)
        if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }
        #endif
        // The child starts with every signal at its default and none blocked, whatever the
        // test process ignores or blocks.
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var flags = Int32(POSIX_SPAWN_SETSIGDEF) | Int32(POSIX_SPAWN_SETSIGMASK)
        #if canImport(Darwin)
        flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        // The child's ends are the child's alone now.
        for pipe in pipes.values { close(pipe.child) }
        guard spawned == 0 else {
            for pipe in pipes.values { close(pipe.ours) }
            throw SpawnError(executable: executable, code: spawned)
        }
        pid = child
        input = pipes[0]?.ours ?? -1
        stdout = Capture(pipes[1]?.ours ?? -1)
        stderr = Capture(pipes[2]?.ours ?? -1)
    }

    /// The path of the package's executable `name`, built beside the test bundle (a test target
    /// that runs it depends on it, so it is built first).
    public static func builtProduct(_ name: String) -> String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [
            bundle, bundle.deletingLastPathComponent(),
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent(),
        ]
        let found = candidates.map { $0.appendingPathComponent(name).path }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        return found ?? bundle.appendingPathComponent(name).path
    }

    public struct SpawnError: Error, CustomStringConvertible {
        public var executable: String
        public var code: Int32
        public var description: String { "cannot start \(executable): \(String(cString: strerror(code)))" }
    }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            var raw: Int32 = 0
            waitpid(pid, &raw, 0)
        }
        for fd in [input, stdout.fd, stderr.fd] where fd >= 0 { close(fd) }
    }

    /// What the child wrote to standard output so far.
    public var output: String {
        pump()
        return stdout.text
    }

    /// What the child wrote to standard error so far.
    public var errors: String {
        pump()
        return stderr.text
    }

    /// Whether the child has not exited yet. Once it has, its status is kept.
    public var isRunning: Bool {
        if status == nil { reap(options: WNOHANG) }
        return status == nil
    }

    /// Writes `text` to the child's standard input, all of it, or as much as a child that
    /// closed its end lets through.
    public func send(_ text: String) {
        precondition(input >= 0, "the child was started without input, or its input was closed")
        Self.ignoreBrokenPipes
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Closes the child's standard input: it reads end-of-file.
    public func closeInput() {
        if input >= 0 { close(input) }
        input = -1
    }

    public func send(signal: Int32) {
        if status == nil { kill(pid, signal) }
    }

    /// Waits for the child to exit, reading all it writes until then. A child still running after
    /// `bound` is killed and the wait recorded as an issue: a hung child fails its test instead of
    /// hanging the run.
    public func waitForExit(
        within bound: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation
    ) -> Int32 {
        let deadline = ContinuousClock.now + bound
        var killed = false
        while stdout.fd >= 0 || stderr.fd >= 0 || isRunning {
            if !killed, ContinuousClock.now >= deadline {
                Issue.record(
                    "the child did not exit within \(bound); killed it", sourceLocation: sourceLocation)
                kill(pid, SIGKILL)
                killed = true
            }
            // Returns when output comes or ends; with none left to read, a pause between checks.
            var polled = [stdout.fd, stderr.fd].filter { $0 >= 0 }.map {
                pollfd(fd: $0, events: Int16(POLLIN), revents: 0)
            }
            _ = poll(&polled, nfds_t(polled.count), 10)
            pump()
        }
        return status ?? -1
    }

    /// Waits for the child to exit, as ``waitForExit(within:sourceLocation:)``, and gives what it
    /// wrote.
    public func finish(sourceLocation: SourceLocation = #_sourceLocation) -> Result {
        let status = waitForExit(sourceLocation: sourceLocation)
        return Result(status: status, stdout: stdout.text, stderr: stderr.text)
    }

    /// Reads what the child wrote, without waiting.
    private func pump() {
        stdout.drain()
        stderr.drain()
    }

    /// What the child writes to one of its outputs, as read so far.
    private struct Capture {
        /// The pipe's read end, non-blocking; -1 once the output ended, or when it goes to
        /// /dev/null.
        private(set) var fd: Int32
        private var bytes: [UInt8] = []

        init(_ fd: Int32) {
            self.fd = fd
            if fd >= 0 { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        }

        var text: String { String(decoding: bytes, as: UTF8.self) }

        /// Reads what is there without waiting; closes the pipe at its end.
        mutating func drain() {
            guard fd >= 0 else { return }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    bytes += chunk[..<count]
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    if count == 0 || errno != EAGAIN {
                        close(fd)
                        fd = -1
                    }
                    return
                }
            }
        }
    }

    private func reap(options: Int32) {
        var raw: Int32 = 0
        var reaped: pid_t
        repeat { reaped = waitpid(pid, &raw, options) } while reaped < 0 && errno == EINTR
        guard reaped == pid else { return }
        let signal = raw & 0x7F
        status = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
    }

    #if canImport(Glibc)
    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
    /// module leaves out as a GNU extension: looked up by name, nil on an older glibc.
    private static let addCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np")
        .map {
            unsafeBitCast($0, to: AddCloseFrom.self)
        }
    #endif

    /// A write to a child that has exited fails with EPIPE instead of killing the test process.
    private static let ignoreBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// A one-way channel for one of the child's streams, which the child reads when `childReads`
    /// and writes otherwise: the test's end and the child's. Close-on-exec from the start on
    /// Linux: a socket pair there, since Swift's Glibc has no `pipe2`.
    private static func pipe(childReads: Bool = false) throws -> (ours: Int32, child: Int32) {
        var fds: [Int32] = [-1, -1]
        #if canImport(Glibc)
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &fds) == 0 else {
            throw SpawnError(executable: "a pipe", code: errno)
        }
        #else
        guard Darwin.pipe(&fds) == 0 else { throw SpawnError(executable: "a pipe", code: errno) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        #endif
        let (read, write) = (fds[0], fds[1])
        return childReads ? (write, read) : (read, write)
    }
}
