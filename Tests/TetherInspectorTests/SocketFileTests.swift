import Foundation
import Synchronization
import Testing
import Tether

@testable import TetherInspector

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the server does with the file at its path: the mode, what it refuses to replace, what it
/// replaces, what it leaves behind.
@Suite struct SocketFileTests {
    let directory: TemporaryDirectory
    let ledger = Ledger(clock: ManualClock())

    init() throws {
        directory = try TemporaryDirectory()
    }

    var path: String { directory("ledger.sock") }

    /// Mode 0600 at every instant the path exists: a thread watches the path while the server
    /// starts, under a umask that would leave a plainly bound socket open to everyone (0755).
    @Test func theSocketIsOwnerOnlyFromItsFirstInstant() throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let seen = Mutex<Set<mode_t>>([])
        let watching = Atomic<Bool>(true)
        let path = path
        let watcher = Thread {
            while watching.load(ordering: .relaxed) {
                if let mode = mode(of: path) { seen.withLock { _ = $0.insert(mode) } }
            }
        }
        watcher.start()
        let server = try LedgerServer.start(at: path, ledger: ledger)
        while seen.withLock({ $0.isEmpty }) {}  // the watcher saw the socket at least once
        watching.store(false, ordering: .relaxed)
        #expect(seen.withLock { $0 } == [0o600])
        #expect(mode(of: path) == 0o600)
        #expect(directory.names == ["ledger.sock"], "no temporary directory left beside it")
        server.stop()
    }

    @Test func refusesToReplaceARegularFile() throws {
        _ = FileManager.default.createFile(atPath: path, contents: Data("precious".utf8))
        #expect(throws: LedgerServerError.notASocket(path: path)) {
            try LedgerServer.start(at: path, ledger: ledger)
        }
        #expect(FileManager.default.contents(atPath: path) == Data("precious".utf8))
        #expect(directory.names == ["ledger.sock"])
        #expect(
            LedgerServerError.notASocket(path: "/tmp/x").description
                == "/tmp/x exists and is not a socket: not replacing it")
    }

    @Test func refusesToReplaceADirectoryOrASymbolicLink() throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect(throws: LedgerServerError.notASocket(path: path)) {
            try LedgerServer.start(at: path, ledger: ledger)
        }
        // A link is not followed, even to a socket.
        let target = directory("target.sock")
        try makeStaleSocket(at: target)
        let link = directory("link.sock")
        #expect(symlink(target, link) == 0)
        #expect(throws: LedgerServerError.notASocket(path: link)) {
            try LedgerServer.start(at: link, ledger: ledger)
        }
        #expect(isSocket(target))
    }

    /// A socket another server answers on stays; that server goes on serving.
    @Test func refusesToReplaceALiveSocket() async throws {
        let live = try LedgerServer.start(at: path, ledger: ledger)
        defer { live.stop() }
        #expect(throws: LedgerServerError.alreadyServed(path: path)) {
            try LedgerServer.start(at: path, ledger: ledger)
        }
        let client = try await LedgerClient.connect(to: path)
        #expect(client.hello.pid == getpid())
        client.close()
        #expect(directory.names == ["ledger.sock"])
    }

    /// What a process that died leaves: a socket nobody listens on. The server takes its place.
    @Test func replacesAStaleSocket() async throws {
        try makeStaleSocket(at: path)
        await #expect(throws: LedgerClientError.connectionRefused(path: path)) {
            try await LedgerClient.connect(to: path)
        }
        let server = try LedgerServer.start(at: path, ledger: ledger)
        defer { server.stop() }
        let client = try await LedgerClient.connect(to: path)
        #expect(client.hello.version == InspectorMessage.protocolVersion)
        #expect(mode(of: path) == 0o600)
        client.close()
    }

    @Test func refusesAPathTooLongForASocketAddress() throws {
        let long = directory(String(repeating: "x", count: 120))
        #expect(throws: LedgerServerError.pathTooLong(path: long, limit: SocketFile.maximumPathLength)) {
            try LedgerServer.start(at: long, ledger: ledger)
        }
        // Short enough itself, but not its directory plus the temporary name.
        let deep = directory(
            String(repeating: "d", count: SocketFile.maximumPathLength - directory.path.utf8.count - 6))
        try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: false)
        let tight = deep + "/s"
        #expect(tight.utf8.count <= SocketFile.maximumPathLength)
        #expect(throws: LedgerServerError.pathTooLong(path: tight, limit: SocketFile.maximumPathLength)) {
            try LedgerServer.start(at: tight, ledger: ledger)
        }
    }

    @Test func saysWhyWhenTheDirectoryIsMissing() throws {
        let nowhere = directory("missing/ledger.sock")
        #expect(
            throws: LedgerServerError.system(
                path: nowhere, operation: "making a directory beside it", reason: "No such file or directory")
        ) { try LedgerServer.start(at: nowhere, ledger: ledger) }
    }
}
