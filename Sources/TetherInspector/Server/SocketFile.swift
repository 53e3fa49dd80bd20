import Foundation
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

    /// The longest socket path, in bytes, that both ends take: NIO's limit, 103 on every platform
    /// (`SocketAddress(unixDomainSocketPath:)`: Darwin's `sun_path` holds 104 bytes with the
    /// terminating NUL, Linux's 108, and NIO takes the smaller everywhere). One limit for the
    /// server and the client, so that a path one takes the other takes too.
    static let maximumPathLength = 103

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

    /// `path` as an absolute path: itself, or taken from `directory`.
    static func absolute(_ path: String, from directory: String) -> String {
        path.hasPrefix("/") ? path : directory + "/" + path
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

    /// What is at `path`, following a symbolic link as `connect` does (a client's view), or the
    /// `errno` of looking.
    static func target(of path: String) -> Result<Existing, Errno> {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return errno == ENOENT ? .success(.nothing) : .failure(Errno(errno))
        }
        return .success(info.st_mode & S_IFMT == S_IFSOCK ? .socket : .other)
    }
}

/// The right to start serving at a path, held by one server at a time — among the threads of this
/// process and among processes.
///
/// Starting is a check then an act: is a live server at the path? if not, put our socket there.
/// Two servers that check at once both find the path free (or both find the same stale socket),
/// and both put their socket there; the first one's is silently replaced. So a starting server
/// takes this claim first, and holds it from its check until its socket is in place and
/// listening: the next one to take it finds a live socket and gets `alreadyServed`.
///
/// The claim is an advisory `flock` on a lock file beside the socket, `.NAME.lock`. `flock`
/// (unlike `fcntl`'s locks, which belong to a process) excludes two descriptors of one process
/// as well as two processes, and the system lets go of it when its process dies, so a crash leaves
/// no stale claim. The file goes when the claim is released; a server that had opened it just
/// before and locks it then finds that the path names another file (or none) and starts over
/// with the file there now, so two servers never hold locks on two different files at once.
struct ServingClaim {
    private let descriptor: Int32
    private let lockPath: String

    private init(descriptor: Int32, lockPath: String) {
        self.descriptor = descriptor
        self.lockPath = lockPath
    }

    /// Takes the claim on `path`, waiting while another server starting there holds it (the time
    /// it takes to bind a socket).
    static func take(_ path: String) -> Result<ServingClaim, Errno> {
        let lockPath = SocketFile.directory(of: path) + "/." + name(of: path) + ".lock"
        while true {
            let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard descriptor >= 0 else { return .failure(Errno(errno)) }
            var locked = flock(descriptor, LOCK_EX)
            while locked != 0 && errno == EINTR { locked = flock(descriptor, LOCK_EX) }
            guard locked == 0 else {
                let error = Errno(errno)
                close(descriptor)
                return .failure(error)
            }
            if isStill(descriptor, at: lockPath) {
                return .success(ServingClaim(descriptor: descriptor, lockPath: lockPath))
            }
            close(descriptor)  // released by its last holder meanwhile: lock the file there now
        }
    }

    /// Lets go of the claim: removes the lock file (while still holding it), then unlocks.
    func release() {
        unlink(lockPath)
        close(descriptor)
    }

    private static func name(of path: String) -> Substring {
        guard let slash = path.lastIndex(of: "/") else { return path[...] }
        return path[path.index(after: slash)...]
    }

    /// Whether the file `descriptor` has open is the one at `path` now.
    private static func isStill(_ descriptor: Int32, at path: String) -> Bool {
        var held = stat()
        var named = stat()
        guard fstat(descriptor, &held) == 0, lstat(path, &named) == 0 else { return false }
        return held.st_dev == named.st_dev && held.st_ino == named.st_ino
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

    /// Records a served socket; returns the key that ``remove(_:)`` takes. A relative path is
    /// recorded from the working directory of now: the process may change it before the socket
    /// is removed (a daemon does, once set up).
    func add(path: String, identity: SocketFile.Identity) -> UInt64 {
        let key = nextKey.wrappingAdd(1, ordering: .relaxed).oldValue
        let path = SocketFile.absolute(path, from: FileManager.default.currentDirectoryPath)
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
