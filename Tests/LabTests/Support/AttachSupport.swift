import Foundation
import TerminalUI
import TerminalUITesting
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fresh directory under /tmp (short, as a socket's path must be), removed at deinit.
final class SocketDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/tether-e2e.XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw POSIXError(.EIO)
        }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func callAsFunction(_ name: String) -> String { path + "/" + name }
}

/// Whether a socket is at `path`, and its permission bits.
func socketMode(_ path: String) -> mode_t? {
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { return nil }
    return info.st_mode & 0o777
}

/// The real binary on a pseudo-terminal, and how each test starts it.
enum LabTerminal {
    static func start(_ arguments: [String] = [], size: Size = Size(width: 120, height: 40)) throws
        -> PseudoTerminal
    {
        try PseudoTerminal(
            executable: LabBinary.path, arguments: arguments, environment: environment, size: size)
    }

    /// The binary as a job of a shell with job control, so that Ctrl-Z stops it
    /// (`PseudoTerminal.job`).
    static func job(_ arguments: [String] = [], size: Size = Size(width: 120, height: 40)) throws
        -> PseudoTerminal
    {
        try PseudoTerminal.job(
            executable: LabBinary.path, arguments: arguments, environment: environment, size: size)
    }

    static var environment: [String: String] {
        var env = ["TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]
        if let home = ProcessInfo.processInfo.environment["HOME"] { env["HOME"] = home }
        return env
    }

    /// Ctrl-Z (or `stop`) in `job`, whose screen shows `shown`: the program stops with the
    /// terminal given back — cooked, off the alternate screen — and `fg` brings it back raw, its
    /// keypad and mouse modes on, redrawn whole (it re-enters the alternate screen, and the
    /// screen shows `shown` again).
    static func expectStopAndFgRedraw(
        _ job: PseudoTerminal, showing shown: String, stop: ((PseudoTerminal) -> Void)? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var mark = job.output.count
        if let stop { stop(job) } else { job.send(.ctrl("z")) }
        #expect(
            job.readUntil(outputContains: PseudoTerminal.jobStopped, since: mark),
            "stopped, as the shell saw",
            sourceLocation: sourceLocation)
        #expect(
            job.outputText(since: mark).contains("\u{1B}[?1049l"), "off the alternate screen",
            sourceLocation: sourceLocation)
        #expect(job.isCooked, "the terminal given back cooked", sourceLocation: sourceLocation)
        mark = job.output.count
        job.continueJob()
        #expect(
            job.readUntil(outputContains: "\u{1B}[?1049h", since: mark), "the alternate screen again",
            sourceLocation: sourceLocation)
        #expect(
            job.readUntil(outputContains: "\u{1B}[?1h", since: mark), "the keypad's mode again (arrows)",
            sourceLocation: sourceLocation)
        #expect(
            job.readUntil(outputContains: "1000h", since: mark), "the mouse again",
            sourceLocation: sourceLocation)
        // Entering the alternate screen blanks it: what it shows after was drawn anew.
        #expect(job.readUntil(screenShows: shown), "redrawn whole", sourceLocation: sourceLocation)
        #expect(job.readUntil { _ in !job.isCooked }, "raw again", sourceLocation: sourceLocation)
    }

    /// A lab serving at `path`, home drawn and the socket in place.
    static func serving(at path: String) throws -> PseudoTerminal {
        let lab = try start(["--serve", path])
        #expect(lab.readUntil(screenShows: "Scenarios"))
        #expect(lab.readUntil { _ in socketMode(path) != nil }, "the lab's socket")
        return lab
    }

    /// Attach watching `path`, connected and drawn.
    static func attach(_ path: String) throws -> PseudoTerminal {
        let attach = try start(["attach", path])
        #expect(attach.readUntil(screenShows: "● connected"))
        #expect(attach.readUntil(screenShows: "Owners: "))
        return attach
    }
}

/// A lab run headless with `--serve`: it prints its dump, then serves its final state until its
/// standard input is closed.
final class HeadlessServingLab {
    private let child: ChildProcess
    var pid: pid_t { child.pid }

    /// Returns once the lab serves and has run its keys: it prints its screen after the last key,
    /// and serves from before the first, so a client that came sooner would see a state between.
    init(keys: String, serving path: String) async throws {
        child = try ChildProcess(
            LabBinary.path, ["--headless", "--keys", keys, "--serve", path], input: true, captureErrors: false
        )
        await waitUntil("the headless lab's socket") { socketMode(path) != nil }
        await waitUntil("the headless lab to run its keys") { !child.output.isEmpty }
    }

    /// Closes its input, and waits for it to exit.
    func stop() -> Int32 {
        child.closeInput()
        return child.waitForExit()
    }

    /// Sends it `signal`, and waits for it to exit.
    func stop(signal: Int32) -> Int32 {
        child.send(signal: signal)
        return child.waitForExit()
    }
}

/// A peer that is not a ledger server of this version: it accepts one connection on `path`,
/// sends `bytes`, and holds the connection until the client closes it (or, `thenCloses`, closes
/// it at once). Plain system calls on a thread of its own.
final class FakePeer {
    private let listener: Int32
    let path: String

    init(path: String, sends bytes: [UInt8], thenCloses: Bool = false) throws {
        self.path = path
        #if canImport(Glibc)
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #else
        listener = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(listener, 4) == 0 else { throw POSIXError(.EADDRINUSE) }
        let descriptor = listener
        Thread.detachNewThread {
            let client = accept(descriptor, nil, nil)
            guard client >= 0 else { return }
            var offset = 0
            while offset < bytes.count {
                #if canImport(Glibc)
                let flags = Int32(MSG_NOSIGNAL)
                #else
                let flags: Int32 = 0
                #endif
                let sent = bytes.withUnsafeBytes {
                    send(client, $0.baseAddress! + offset, min(65_536, bytes.count - offset), flags)
                }
                if sent <= 0 { break }
                offset += sent
            }
            var scratch = [UInt8](repeating: 0, count: 4096)
            while !thenCloses, scratch.withUnsafeMutableBytes({ read(client, $0.baseAddress, $0.count) }) > 0
            {}
            close(client)
        }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        unlink(path)
    }
}
