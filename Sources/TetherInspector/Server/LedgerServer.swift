import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Tether

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Serves a ledger on a Unix domain socket, so that `tether-lab attach PATH` — or any
/// ``LedgerClient`` — shows it live.
///
/// ```swift
/// let server = try LedgerServer.start(at: "/tmp/myapp.tether", ledger: .shared)
/// // … the program runs; attach from another terminal …
/// server.stop()
/// ```
///
/// The socket's mode is 0600 from its first instant: only this user can attach. The stream is
/// read-only newline-delimited JSON (<doc:InspectorProtocol>): a hello, the ledger as it is, then
/// a snapshot whenever it changes, at most ten a second. A slow client gets the newest snapshot
/// when it catches up; one that reads nothing holds at most two snapshots of memory and blocks
/// nothing. While no client is connected the server does not observe the ledger at all, and
/// while nothing changes it wakes no thread.
///
/// Lifetime: serves until ``stop()`` or until the server is released, whichever comes first;
/// both close every client and remove the socket. The socket is also removed when the process
/// exits normally. Thread-safe; the work runs on an event loop of NIO's shared group.
public final class LedgerServer: Sendable {
    /// The path served.
    public let path: String
    /// The directory of a path plus this many bytes must fit in a socket address: the server
    /// binds at `DIR/.XXXXXX/s` first, then renames the socket into place.
    public static let temporaryPathOverhead = 10
    /// How many clients a server serves at once. The next ones wait, unaccepted, in the queue of
    /// connections, and are said hello to as places free up: clients that connect and never leave
    /// cannot make the server hold more descriptors than this many (a server out of them spins
    /// its event loop on the connection it cannot accept).
    public static let maximumClients = 64

    /// How many connections may wait to be accepted: room for many clients attaching at once
    /// (a client whose connection finds the queue full tries again, for a while).
    static let backlog: Int32 = 256

    private let hub: ServingHub
    private let channel: any Channel
    private let registration: UInt64
    private let stopped = Atomic<Bool>(false)

    private init(path: String, hub: ServingHub, channel: any Channel, registration: UInt64) {
        self.path = path
        self.hub = hub
        self.channel = channel
        self.registration = registration
    }

    deinit { stop() }

    /// Starts serving `ledger` at `path`.
    ///
    /// Replaces a stale socket (one nobody serves: its process died); refuses to replace
    /// anything else. Of servers starting at one path at once, in one process or several, exactly
    /// one serves and the others throw ``LedgerServerError/alreadyServed(path:)``; while it
    /// starts, a server holds a lock file beside the path (`.NAME.lock`), and removes it when its
    /// socket is in place. Call it outside NIO's event loops: it waits for the socket to be bound.
    ///
    /// - Parameters:
    ///   - path: Where the socket goes, at most 103 bytes (``LedgerClient`` takes the same).
    ///     Its directory must exist and be writable.
    ///   - ledger: The ledger to serve; `Ledger.shared` by default.
    /// - Returns: The server; keep it, since releasing it stops serving.
    /// - Throws: ``LedgerServerError``: a file that is not a socket at `path`, a socket a live
    ///   process serves, a path too long, or a failing system call.
    public static func start(at path: String, ledger: Ledger = .shared) throws(LedgerServerError)
        -> LedgerServer
    {
        try start(at: path, ledger: ledger, minimumInterval: .milliseconds(100))
    }

    /// ``start(at:ledger:)`` with the shortest time between two snapshots, the most clients
    /// served at once and how a snapshot is taken (for tests).
    static func start(
        at path: String, ledger: Ledger, minimumInterval: TimeAmount,
        maximumClients: Int = LedgerServer.maximumClients,
        takeSnapshot: @escaping ServingHub.SnapshotTaker = ServingHub.encodeSnapshot
    ) throws(LedgerServerError) -> LedgerServer {
        let limit = SocketFile.maximumPathLength
        guard path.utf8.count <= limit,
            SocketFile.directory(of: path).utf8.count + temporaryPathOverhead <= limit
        else { throw .pathTooLong(path: path, limit: limit) }
        let loop = MultiThreadedEventLoopGroup.singleton.next()

        // Bound in a directory only this user can enter, made owner-only there, then renamed into
        // place: at no instant is the socket at `path` open to anyone else. The rename also
        // replaces a stale socket atomically. (And NIO, which removes a closed listener's socket
        // by the path it was bound at, then finds the temporary path gone: the served socket is
        // removed by `stop()`, only while it is still this server's — never a newer server's.)
        let directory: String
        switch SocketFile.makePrivateDirectory(beside: path) {
        case .success(let made): directory = made
        case .failure(let error):
            throw .system(path: path, operation: "making a directory beside it", reason: error.description)
        }
        defer { SocketFile.removeDirectory(directory) }
        let temporary = directory + "/s"

        // Held from the check until the socket is in place and listening: of servers starting at
        // one path at once, in this process or others, one serves and the rest find it live.
        let claim: ServingClaim
        switch ServingClaim.take(path) {
        case .success(let taken): claim = taken
        case .failure(let error):
            throw .system(path: path, operation: "locking a file beside it", reason: error.description)
        }
        defer { claim.release() }
        try checkReplaceable(path, loop: loop)
        let hub = ServingHub(
            ledger: ledger, loop: loop, interval: minimumInterval,
            hello: InspectorHello(pid: getpid(), process: ProcessInfo.processInfo.processName),
            takeSnapshot: takeSnapshot)
        let channel: any Channel
        do {
            channel = try ServerBootstrap(group: loop, childGroup: loop)
                .serverChannelOption(.backlog, value: LedgerServer.backlog)
                // One accept per read: the gate counts the clients before each.
                .serverChannelOption(.maxMessagesPerRead, value: 1)
                .serverChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(AcceptGate(maximum: maximumClients))
                    }
                }
                .childChannelOption(.allowRemoteHalfClosure, value: true)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(SnapshotWriter(hub: hub))
                    }
                }
                .bind(unixDomainSocketPath: temporary)
                .wait()
        } catch {
            unlink(temporary)
            throw .system(path: path, operation: "bind", reason: Self.reason(error))
        }
        let failure =
            SocketFile.setOwnerOnly(temporary).map { ("chmod", $0) }
            ?? SocketFile.move(temporary, to: path).map { ("rename", $0) }
        guard failure == nil, let identity = SocketFile.identity(at: path) else {
            channel.close(promise: nil)
            unlink(temporary)
            throw .system(
                path: path, operation: failure?.0 ?? "lstat", reason: failure?.1.description ?? "gone")
        }
        let registration = LiveSockets.shared.add(path: path, identity: identity)
        return LedgerServer(path: path, hub: hub, channel: channel, registration: registration)
    }

    /// Stops serving: removes the socket, then closes the listening channel and every client.
    /// Idempotent; callable from any thread.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        LiveSockets.shared.remove(registration)
        let hub = hub
        let channel = channel
        hub.loop.execute {
            channel.close(promise: nil)
            hub.stop()
        }
    }

    /// The hub's state, read on its loop (for tests).
    func inspect<Value: Sendable>(_ read: @escaping @Sendable (ServingHub) -> Value) async throws -> Value {
        try await hub.loop.submit { [hub] in read(hub) }.get()
    }

    /// Refuses a path that holds anything but a stale socket.
    private static func checkReplaceable(_ path: String, loop: any EventLoop) throws(LedgerServerError) {
        switch SocketFile.existing(at: path) {
        case .success(.nothing):
            return
        case .success(.other):
            throw .notASocket(path: path)
        case .failure(let error):
            throw .system(path: path, operation: "lstat", reason: error.description)
        case .success(.socket):
            break
        }
        // A socket: live if a connection to it succeeds.
        do {
            let probe = try ClientBootstrap(group: loop).connect(unixDomainSocketPath: path).wait()
            probe.close(promise: nil)
        } catch let error as IOError where error.errnoCode == ECONNREFUSED || error.errnoCode == ENOENT {
            return  // stale: its process is gone
        } catch let error as IOError where error.errnoCode == EAGAIN {
            throw .alreadyServed(path: path)  // its queue of connections is full: live, and busy
        } catch let error as IOError where error.errnoCode == EACCES {
            throw .permissionDenied(path: path)
        } catch {
            throw .system(path: path, operation: "connect", reason: reason(error))
        }
        throw .alreadyServed(path: path)
    }

    static func reason(_ error: any Error) -> String {
        if let error = error as? IOError { return Errno(error.errnoCode).description }
        return String(describing: error)
    }
}
