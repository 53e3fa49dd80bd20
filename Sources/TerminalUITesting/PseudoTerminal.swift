import TerminalUI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program on a pseudo-terminal for end-to-end tests: send it keys, read what it
/// drew until a condition on the output holds, check how it exited.
///
/// The program gets a new session with the terminal as its controlling tty (or, with
/// `controllingTerminal: false`, only a new process group, so a hang-up sends it no SIGHUP),
/// a window size and an environment. `readUntil` reads the output until the condition holds and
/// says whether it did: its timeout is a failure bound, not a sleep, and the caller `#expect`s
/// the answer. Not `Sendable`: use it from one task.
/// Killing the child (SIGKILL) and closing the terminal happen at deinit if the test did not.
public final class PseudoTerminal {
    public enum SpawnError: Error, CustomStringConvertible {
        case openpt(Int32), spawn(Int32)
        public var description: String {
            switch self {
            case .openpt(let e): return "cannot open a pseudo-terminal: \(String(cString: strerror(e)))"
            case .spawn(let e): return "cannot spawn: \(String(cString: strerror(e)))"
            }
        }
    }

    /// How the child ended.
    public enum Termination: Equatable, Sendable {
        case exited(Int32)
        case signaled(Int32)
    }

    public let pid: pid_t
    /// The master side of the terminal; -1 after `hangUp()`.
    public private(set) var masterFD: Int32
    /// Every byte the program wrote so far (as far as read).
    public private(set) var output: [UInt8] = []
    public private(set) var termination: Termination?
    /// The output read so far, as a terminal of this size shows it.
    private var emulator: TerminalScreen
    private var emulated = 0

    /// Starts `executable` on a new pseudo-terminal of `size`.
    public init(
        executable: String, arguments: [String] = [], environment: [String: String], size: Size,
        controllingTerminal: Bool = true
    ) throws {
        let (master, slavePath) = try PseudoTerminal.openMaster()
        PseudoTerminal.setWindowSize(master, size)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)

        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(
            &actions, 0, slavePath, O_RDWR | (controllingTerminal ? 0 : O_NOCTTY), 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        // The program holds no other descriptor of the test: sockets are not close-on-exec on
        // Linux, and one a test closes must end its connection while the program runs.
        #if canImport(Glibc)
        if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // POSIX_SPAWN_SETSID: a new session, so opening the slave makes it the controlling tty; or
        // POSIX_SPAWN_SETPGROUP with group 0: a process group of its own, no controlling tty.
        // POSIX_SPAWN_SETSIGDEF | SETSIGMASK: default signal handling in the child.
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setpgroup(&attributes, 0)
        let session = controllingTerminal ? PseudoTerminal.spawnNewSession : Int32(POSIX_SPAWN_SETPGROUP)
        var flags = session | Int32(POSIX_SPAWN_SETSIGDEF) | Int32(POSIX_SPAWN_SETSIGMASK)
        #if canImport(Darwin)
        flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)  // as the closefrom action above does on Linux
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let rc = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard rc == 0 else {
            close(master)
            throw SpawnError.spawn(rc)
        }
        pid = child
        masterFD = master
        emulator = TerminalScreen(size: size)
    }

    deinit {
        if termination == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        if masterFD >= 0 { close(masterFD) }
    }

    /// Closes the master side, as a terminal emulator that goes away does: the program's
    /// terminal hangs up (its reads return end-of-file or EIO). Output can no longer be read.
    public func hangUp() {
        guard masterFD >= 0 else { return }
        close(masterFD)
        masterFD = -1
    }

    /// The output decoded as UTF-8 (escape sequences included).
    public var outputText: String { String(decoding: output, as: UTF8.self) }

    /// Output from byte offset `mark` on (take a mark with `output.count` before acting).
    public func outputText(since mark: Int) -> String {
        String(decoding: output[min(mark, output.count)...], as: UTF8.self)
    }

    /// Writes bytes to the program's input.
    public func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(masterFD, $0.baseAddress! + offset, $0.count - offset) }
            if n > 0 {
                offset += n
            } else if errno != EAGAIN && errno != EINTR {
                return
            } else {
                var p = pollfd(fd: masterFD, events: Int16(POLLOUT), revents: 0)
                _ = poll(&p, 1, 100)
            }
        }
    }

    /// Types text.
    public func send(_ text: String) { send(Array(text.utf8)) }

    /// Types a key as a terminal (xterm) would send it.
    public func send(_ key: Key) {
        let esc = "\u{1B}"
        switch key {
        case .character(let c): send(String(c))
        case .enter: send("\r")
        case .escape: send(esc)
        case .tab: send("\t")
        case .backTab: send(esc + "[Z")
        case .backspace: send([0x7F])
        case .delete: send(esc + "[3~")
        case .insert: send(esc + "[2~")
        case .up: send(esc + "OA")
        case .down: send(esc + "OB")
        case .right: send(esc + "OC")
        case .left: send(esc + "OD")
        case .home: send(esc + "OH")
        case .end: send(esc + "OF")
        case .pageUp: send(esc + "[5~")
        case .pageDown: send(esc + "[6~")
        case .function(let n):
            let codes = [
                1: "OP", 2: "OQ", 3: "OR", 4: "OS", 5: "[15~", 6: "[17~", 7: "[18~", 8: "[19~", 9: "[20~",
                10: "[21~", 11: "[23~", 12: "[24~",
            ]
            if let c = codes[n] { send(esc + c) }
        case .ctrl(let c):
            if let v = c.asciiValue { send([v & 0x1F]) }
        }
    }

    /// Sends a signal to the program.
    public func signal(_ signal: Int32) { kill(pid, signal) }

    /// Changes the window size (the program gets SIGWINCH).
    public func resize(to size: Size) {
        _ = screenLines
        emulator.resize(to: size)
        PseudoTerminal.setWindowSize(masterFD, size)
    }

    /// The screen now, as a terminal shows the output: one string a row, trailing spaces trimmed.
    public var screenLines: [String] {
        if emulated < output.count {
            emulator.feed(output[emulated...])
            emulated = output.count
        }
        return emulator.lines
    }

    /// Reads until the screen shows `text` on one row; false if `timeout` passes first.
    public func readUntil(screenShows text: String, timeout: Duration = .seconds(15)) -> Bool {
        readUntil(timeout: timeout) { _ in self.screenLines.contains { $0.contains(text) } }
    }

    /// Reads what is available, waiting up to `milliseconds` for something to arrive.
    /// Returns false once the program has exited and everything was read.
    @discardableResult
    public func pump(milliseconds: Int32 = 20) -> Bool {
        if masterFD < 0 {
            if termination == nil { reap(options: WNOHANG) }
            if termination == nil { _ = poll(nil, 0, milliseconds) }
            return termination == nil
        }
        var p = pollfd(fd: masterFD, events: Int16(POLLIN), revents: 0)
        let ready = poll(&p, 1, milliseconds)
        var readSomething = false
        if ready > 0 {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(masterFD, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                output.append(contentsOf: chunk[0..<n])
                readSomething = true
            }
        }
        if termination == nil { reap(options: WNOHANG) }
        return readSomething || termination == nil
    }

    /// Reads the output until `condition` holds of it (as ``outputText``); false if `timeout`
    /// passes first or the program ends without it holding.
    public func readUntil(timeout: Duration = .seconds(15), _ condition: (String) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            if condition(outputText) { return true }
            if ContinuousClock.now >= deadline { return false }
            if !pump() { return condition(outputText) }
        }
    }

    /// Reads until the output from byte offset `mark` on contains `text`, escape sequences
    /// included (a word the program wrote in pieces is found by ``readUntil(screenShows:timeout:)``).
    public func readUntil(
        outputContains text: String, since mark: Int = 0, timeout: Duration = .seconds(15)
    ) -> Bool {
        readUntil(timeout: timeout) { _ in self.outputText(since: mark).contains(text) }
    }

    /// Waits for the program to end, reading its remaining output; nil on timeout.
    public func waitForExit(timeout: Duration = .seconds(15)) -> Termination? {
        let deadline = ContinuousClock.now + timeout
        while termination == nil, ContinuousClock.now < deadline { pump() }
        // Read what arrived before the exit (pump reports whether it read something).
        while termination != nil, masterFD >= 0, pump(milliseconds: 0) {}
        // Drain what is left after exit.
        while masterFD >= 0 {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { read(masterFD, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            output.append(contentsOf: chunk[0..<n])
        }
        return termination
    }

    private func reap(options: Int32) {
        var status: Int32 = 0
        let r = waitpid(pid, &status, options)
        guard r == pid else { return }
        let sig = status & 0x7F
        termination = sig == 0 ? .exited((status >> 8) & 0xFF) : .signaled(sig)
    }

    /// The terminal's local modes are canonical with echo (as a shell expects).
    public var isCooked: Bool {
        var t = termios()
        guard tcgetattr(masterFD, &t) == 0 else { return false }
        return t.c_lflag & tcflag_t(ICANON) != 0 && t.c_lflag & tcflag_t(ECHO) != 0
    }

    /// Voluntary context switches of every thread of the program (from Linux's /proc), or nil
    /// where there is no /proc.
    public var voluntaryContextSwitches: Int? { Self.voluntaryContextSwitches(of: pid) }

    /// Voluntary context switches of every thread of process `pid` (from Linux's /proc), or nil
    /// where there is no /proc.
    public static func voluntaryContextSwitches(of pid: pid_t) -> Int? {
        guard let dir = opendir("/proc/\(pid)/task") else { return nil }
        defer { closedir(dir) }
        var total = 0
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let tid = Int(name) else { continue }
            guard let f = fopen("/proc/\(pid)/task/\(tid)/status", "r") else { continue }
            var line = [CChar](repeating: 0, count: 256)
            while fgets(&line, 256, f) != nil {
                let s = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if s.hasPrefix("voluntary_ctxt_switches:") {
                    total += Int(s.dropFirst("voluntary_ctxt_switches:".count).trimmingWhitespace) ?? 0
                }
            }
            fclose(f)
        }
        return total
    }
}

// MARK: - Platform

extension PseudoTerminal {
    /// POSIX_SPAWN_SETSID, which Glibc declares only for GNU sources.
    #if canImport(Darwin)
    fileprivate static let spawnNewSession = Int32(POSIX_SPAWN_SETSID)
    #else
    fileprivate static let spawnNewSession: Int32 = 0x80
    #endif

    #if canImport(Glibc)
    fileprivate typealias AddCloseFrom =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), a GNU extension
    /// Swift's Glibc leaves out: looked up by name, nil on an older glibc.
    fileprivate static let addCloseFrom = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: AddCloseFrom.self)
    }
    #endif

    /// Opens a new pseudo-terminal: its master side, unlocked, and the path of its slave side.
    fileprivate static func openMaster() throws -> (master: Int32, slavePath: String) {
        #if canImport(Darwin)
        let master = posix_openpt(O_RDWR | O_NOCTTY)
        guard master >= 0, grantpt(master) == 0, unlockpt(master) == 0, let name = ptsname(master) else {
            let e = errno
            if master >= 0 { close(master) }
            throw SpawnError.openpt(e)
        }
        return (master, String(cString: name))
        #else
        // What posix_openpt, unlockpt and ptsname do on Linux (Glibc does not export them to Swift):
        // /dev/ptmx, then TIOCSPTLCK and TIOCGPTN.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431 /* TIOCSPTLCK */, &unlock) == 0,
            ioctl(master, 0x8004_5430 /* TIOCGPTN */, &number) == 0
        else {
            let e = errno
            if master >= 0 { close(master) }
            throw SpawnError.openpt(e)
        }
        return (master, "/dev/pts/\(number)")
        #endif
    }

    fileprivate static func setWindowSize(_ fd: Int32, _ size: Size) {
        var ws = winsize(ws_row: UInt16(size.height), ws_col: UInt16(size.width), ws_xpixel: 0, ws_ypixel: 0)
        #if canImport(Darwin)
        _ = ioctl(fd, TIOCSWINSZ, &ws)
        #else
        _ = ioctl(fd, UInt(TIOCSWINSZ), &ws)
        #endif
    }
}

extension Substring {
    fileprivate var trimmingWhitespace: Substring {
        drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == "\n" || $0 == " " }.reversed().reduce(
            into: ""
        ) {
            $0.append($1)
        }[...]
    }
}
