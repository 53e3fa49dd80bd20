import Glibc

/// The real binary on a pseudo-terminal: type keys, read what it wrote, wait until a condition
/// holds (a timeout bounds failures; it is not a sleep), check how it ended.
///
/// Reads the raw output (escape sequences included) — enough to find words the lab drew,
/// since a changed run of cells is written contiguously. Kills the child at deinit if the test
/// did not end it. Use from one task.
final class PseudoTerminal {
    enum Termination: Equatable {
        case exited(Int32)
        case signaled(Int32)
    }

    let pid: pid_t
    let master: Int32
    private(set) var output: [UInt8] = []
    private(set) var termination: Termination?

    init(
        _ executable: String, arguments: [String] = [], environment: [String: String], width: Int, height: Int
    ) throws {
        // Glibc's module map leaves out posix_openpt/unlockpt/ptsname; these ioctls are what they do.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431 /* TIOCSPTLCK */, &unlock) == 0,
            ioctl(master, 0x8004_5430 /* TIOCGPTN */, &number) == 0
        else {
            struct OpenFailed: Error {}
            throw OpenFailed()
        }
        let slavePath = "/dev/pts/\(number)"
        var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        // A new session (POSIX_SPAWN_SETSID), so the terminal becomes the controlling tty.
        posix_spawnattr_setflags(
            &attributes,
            Int16(0x80 /* POSIX_SPAWN_SETSID */ | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
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
            struct SpawnFailed: Error { var code: Int32 }
            throw SpawnFailed(code: rc)
        }
        pid = child
        self.master = master
    }

    deinit {
        if termination == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        close(master)
    }

    var text: String { String(decoding: output, as: UTF8.self) }
    func text(since mark: Int) -> String {
        String(decoding: output[min(mark, output.count)...], as: UTF8.self)
    }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(master, $0.baseAddress! + offset, $0.count - offset) }
            if n > 0 { offset += n } else if errno != EAGAIN && errno != EINTR { return }
        }
    }

    /// Reads what arrived within `milliseconds`; reaps the child if it ended.
    func pump(milliseconds: Int32 = 20) {
        var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        if poll(&p, 1, milliseconds) > 0 {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                output.append(contentsOf: chunk[0..<n])
            }
        }
        if termination == nil {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                termination = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
            }
        }
    }

    /// Waits until the output after `mark` contains `needle`; false after `timeout`.
    func waitFor(_ needle: String, since mark: Int = 0, timeout: Duration = .seconds(15)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if text(since: mark).contains(needle) { return true }
            if termination != nil {
                pump(milliseconds: 0)
                return text(since: mark).contains(needle)
            }
            pump()
        }
        return false
    }

    /// Waits for the program to end; nil after `timeout`.
    func waitForExit(timeout: Duration = .seconds(15)) -> Termination? {
        let deadline = ContinuousClock.now + timeout
        while termination == nil, ContinuousClock.now < deadline { pump() }
        pump(milliseconds: 0)
        return termination
    }
}
