import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if TETHER_TSAN
// As in Tether: under TSan the lock is the pthread-backed one, whose calls TSan can see.
import Tether
typealias Mutex<Value> = SanitizerMutex<Value>
#endif

/// The file system's side of a served socket: what is at a path, a private directory to bind
/// in, and removing the socket only while it is still the one this process made.
enum SocketFile {
    /// Which file a path named when it was looked at: a later file at the same path is another.
    struct Identity: Equatable, Sendable {
        let device: UInt64
        let inode: UInt64
    }

    enum Existing: Equatable {
        case nothing
        case socket
        case other
    }

    /// The longest path a Unix socket address holds: `sun_path` less its terminating NUL
    /// (107 bytes on Linux, 103 on Darwin).
    static let maximumPathLength: Int = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// What is at `path` (not following a symbolic link), or the `errno` of looking.
    static func existing(at path: String) -> Result<Existing, Errno> {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            return errno == ENOENT ? .success(.nothing) : .failure(Errno(errno))
        }
        return .success(info.st_mode & S_IFMT == S_IFSOCK ? .socket : .other)
    }

    /// The identity of the socket at `path`, nil when there is none.
    static func identity(at path: String) -> Identity? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { return nil }
        return Identity(
            device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino))
    }

    /// Removes the socket at `path` if it is still `identity`: a server started meanwhile at the
    /// same path keeps its socket.
    static func remove(_ path: String, ifStill identity: Identity) {
        guard self.identity(at: path) == identity else { return }
        unlink(path)
    }

    /// The directory part of `path` (`.` for a bare name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Makes a new directory beside `path`, mode 0700, and returns its path.
    static func makePrivateDirectory(beside path: String) -> Result<String, Errno> {
        var template = Array((directory(of: path) + "/.XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { return .failure(Errno(errno)) }
        return .success(String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    static func setOwnerOnly(_ path: String) -> Errno? {
        chmod(path, 0o600) == 0 ? nil : Errno(errno)
    }

    static func move(_ from: String, to: String) -> Errno? {
        rename(from, to) == 0 ? nil : Errno(errno)
    }

    static func removeDirectory(_ path: String) {
        rmdir(path)
    }
}

/// A system call's error number, with the system's text for it.
struct Errno: Error, Equatable, CustomStringConvertible {
    let code: Int32

    init(_ code: Int32) {
        self.code = code
    }

    var description: String { String(cString: strerror(code)) }
}

/// The sockets this process serves, so that they are removed when it exits normally (`exit`, a
/// return from `main`), even where no one called ``LedgerServer/stop()``.
///
/// Thread-safe: a `Mutex` holds the table. The exit hook is installed once, with the first
/// socket; it takes the table out under the lock and removes the files after unlocking.
final class LiveSockets: Sendable {
    static let shared = LiveSockets()

    private struct Served: Sendable {
        let path: String
        let identity: SocketFile.Identity
    }

    private let sockets = Mutex<[UInt64: Served]>([:])
    private let nextKey = Atomic<UInt64>(1)

    private init() {
        atexit { LiveSockets.shared.removeAll() }
    }

    /// Records a served socket; returns the key that ``remove(_:)`` takes.
    func add(path: String, identity: SocketFile.Identity) -> UInt64 {
        let key = nextKey.wrappingAdd(1, ordering: .relaxed).oldValue
        sockets.withLock { $0[key] = Served(path: path, identity: identity) }
        return key
    }

    /// Forgets a socket and removes its file, if it is still the one that was served.
    func remove(_ key: UInt64) {
        guard let served = sockets.withLock({ $0.removeValue(forKey: key) }) else { return }
        SocketFile.remove(served.path, ifStill: served.identity)
    }

    private func removeAll() {
        let all = sockets.withLock { sockets in
            defer { sockets = [:] }
            return Array(sockets.values)
        }
        for served in all { SocketFile.remove(served.path, ifStill: served.identity) }
    }
}
