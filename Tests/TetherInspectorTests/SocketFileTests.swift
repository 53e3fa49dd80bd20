import Foundation
import Synchronization
import TestSupport
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
        waitUntil("the watcher to see the socket") { seen.withLock { !$0.isEmpty } }
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

    /// Four threads start a server at one path at once, round after round: in each, exactly one
    /// serves and the others are told it is served — none replaces another's socket unseen.
    @Test func ofServersStartingAtOnceAtOnePathExactlyOneServes() async throws {
        let ledger = ledger
        for round in 0..<30 {
            let path = directory("race\(round).sock")
            let go = DispatchSemaphore(value: 0)
            let outcomes = Mutex<[Result<LedgerServer, LedgerServerError>]>([])
            for _ in 0..<4 {
                Thread.detachNewThread {
                    go.wait()
                    let outcome = Result { () throws(LedgerServerError) in
                        try LedgerServer.start(at: path, ledger: ledger)
                    }
                    outcomes.withLock { $0.append(outcome) }
                }
            }
            for _ in 0..<4 { go.signal() }
            await waitUntil("four outcomes") { outcomes.withLock { $0.count } == 4 }
            let all = outcomes.withLock { $0 }
            let servers = all.compactMap { try? $0.get() }
            let refusals = all.compactMap { if case .failure(let error) = $0 { error } else { nil } }
            #expect(servers.count == 1, "round \(round): \(servers.count) servers")
            #expect(refusals == Array(repeating: .alreadyServed(path: path), count: 3), "round \(round)")
            if let server = servers.first {
                #expect(SocketFile.identity(at: path) != nil)
                let client = try await LedgerClient.connect(to: path)
                client.close()
                server.stop()
            }
            for server in servers.dropFirst() { server.stop() }
        }
        #expect(directory.names.isEmpty, "no socket, lock file or temporary directory left")
    }

    /// The limit is NIO's, 103 bytes on every platform, on both ends: a path of 103 bytes is
    /// served and connected to; one of 104 to 107 is refused up front, by both.
    @Test func theServerAndTheClientTakeTheSamePaths() async throws {
        #expect(SocketFile.maximumPathLength == 103)
        let prefix = directory.path + "/"
        func path(ofLength length: Int) -> String {
            prefix + String(repeating: "p", count: length - prefix.utf8.count)
        }
        let longest = path(ofLength: 103)
        let server = try LedgerServer.start(at: longest, ledger: ledger)
        let client = try await LedgerClient.connect(to: longest)
        #expect(client.hello.pid == getpid())
        client.close()
        server.stop()
        for length in 104...107 {
            let long = path(ofLength: length)
            #expect(throws: LedgerServerError.pathTooLong(path: long, limit: 103)) {
                try LedgerServer.start(at: long, ledger: ledger)
            }
            await #expect(throws: LedgerClientError.pathTooLong(path: long)) {
                try await LedgerClient.connect(to: long)
            }
        }
        #expect(directory.names.isEmpty)
    }

    /// A directory of 96 or 97 bytes leaves no room for the temporary name the server binds
    /// first: the same clear error, before anything is made — not a failing bind.
    @Test func aDirectoryWithNoRoomForTheTemporaryNameIsTooLong() throws {
        for length in [96, 97] {
            let deep =
                directory.path + "/" + String(repeating: "d", count: length - directory.path.utf8.count - 1)
            #expect(deep.utf8.count == length)
            try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: false)
            let path = deep + "/s"
            #expect(throws: LedgerServerError.pathTooLong(path: path, limit: 103)) {
                try LedgerServer.start(at: path, ledger: ledger)
            }
            #expect((try? FileManager.default.contentsOfDirectory(atPath: deep)) == [])
        }
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
