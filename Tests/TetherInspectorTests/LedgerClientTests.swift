import Foundation
import NIOCore
import NIOPosix
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

/// The client against bad paths and bad peers: one clear error each, never a trap.
@Suite struct LedgerClientTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    var path: String { directory("peer.sock") }

    /// A path of its own for each fake peer: NIO removes a closed server's socket file after the
    /// close, which could remove the next peer's socket at the same path. Numbered, not random:
    /// two peers never draw the same name.
    func freshPath() -> String {
        directory("peer-\(Self.peers.add(1, ordering: .relaxed).newValue).sock")
    }

    private static let peers = Atomic<Int>(0)

    static let hello = InspectorMessage.hello(InspectorHello(pid: 1, process: "fake")).encodedLine()

    /// Connects to a fake peer that sends `bytes`; the error `connect` throws, if any.
    func connectError(
        toPeerSending bytes: [UInt8], thenCloses: Bool = false, limit: Int = 1_000, at path: String? = nil
    ) async throws -> LedgerClientError? {
        let path = path ?? freshPath()
        let peer = try await FakeServer(path: path, sends: bytes, thenCloses: thenCloses)
        defer { peer.stop() }
        do {
            // Far longer than the test: a peer here answers or closes, and a loaded machine must
            // not turn a slow answer into a timeout.
            let client = try await LedgerClient.connect(
                to: path, maximumLineLength: limit, helloTimeout: .seconds(3_600))
            client.close()
            return nil
        } catch {
            return error
        }
    }

    /// Connects to a fake peer that says hello and then sends `bytes`; how the connection ended.
    func disconnect(afterHelloPeerSends bytes: [UInt8], limit: Int = 1_000) async throws -> (
        [InspectorSnapshot], LedgerClient.DisconnectReason?
    ) {
        let peer = try await FakeServer(path: path, sends: Self.hello + bytes)
        defer { peer.stop() }
        let client = try await LedgerClient.connect(to: path, maximumLineLength: limit)
        let log = EventLog(client)
        let reason = await log.waitForDisconnect()
        return (log.snapshots, reason)
    }

    @Test func aMissingPath() async {
        await #expect(throws: LedgerClientError.missing(path: path)) {
            try await LedgerClient.connect(to: path)
        }
        #expect(LedgerClientError.missing(path: "/tmp/a").description == "/tmp/a: no such file")
        let inMissingDirectory = directory("nope/peer.sock")
        await #expect(throws: LedgerClientError.missing(path: inMissingDirectory)) {
            try await LedgerClient.connect(to: inMissingDirectory)
        }
    }

    @Test func aPathThatIsNotASocket() async throws {
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        await #expect(throws: LedgerClientError.notASocket(path: path)) {
            try await LedgerClient.connect(to: path)
        }
        await #expect(throws: LedgerClientError.notASocket(path: directory.path)) {
            try await LedgerClient.connect(to: directory.path)
        }
    }

    /// A symbolic link to a live socket is followed, as `connect` follows it; a link to anything
    /// else says what it leads to.
    @Test func aSymbolicLinkToASocketIsFollowed() async throws {
        let server = try LedgerServer.start(at: path, ledger: Ledger(clock: ManualClock()))
        defer { server.stop() }
        let link = directory("link.sock")
        #expect(symlink(path, link) == 0)
        let client = try await LedgerClient.connect(to: link)
        #expect(client.hello.pid == getpid())
        #expect(client.path == link)
        client.close()

        let plain = directory("plain")
        _ = FileManager.default.createFile(atPath: plain, contents: Data())
        let toPlain = directory("to-plain")
        #expect(symlink(plain, toPlain) == 0)
        await #expect(throws: LedgerClientError.notASocket(path: toPlain)) {
            try await LedgerClient.connect(to: toPlain)
        }
        let dangling = directory("dangling")
        #expect(symlink(directory("nothing.sock"), dangling) == 0)
        await #expect(throws: LedgerClientError.missing(path: dangling)) {
            try await LedgerClient.connect(to: dangling)
        }
    }

    #if os(Linux)
    /// A server whose queue of connections is full refuses a connection with `EAGAIN` (Linux):
    /// the client waits its turn instead of failing. Here the queue of a listener that accepts
    /// nothing is filled; once the client has had its first try, the queue is drained, and the
    /// next try is accepted and said hello to.
    @Test func aClientWaitsItsTurnWhileTheServersQueueIsFull() async throws {
        let listener = streamSocket()
        defer {
            shutdown(listener, Int32(SHUT_RDWR))  // wakes the accepting thread, if it still waits
            close(listener)
        }
        #expect(withAddress(path) { bind(listener, $0, $1) } == 0)
        #expect(listen(listener, 1) == 0)
        var queued: [Int32] = []
        defer { queued.forEach { close($0) } }
        while queued.count < 100 {
            let descriptor = streamSocket()
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            if withAddress(path, { connect(descriptor, $0, $1) }) == 0 {
                queued.append(descriptor)
            } else {
                #expect(errno == EAGAIN, "a full queue: \(errno)")
                close(descriptor)
                break
            }
        }
        let outcome = Mutex<Result<LedgerClient, LedgerClientError>?>(nil)
        LedgerClient.connect(
            to: path, helloTimeout: .seconds(3_600), queue: DispatchQueue(label: "waiting"), events: { _ in }
        ) { result in
            outcome.withLock { $0 = result }
        }
        // Its first try runs on its event loop: after a few turns of every loop it has been made,
        // into the full queue.
        for _ in 0..<3 {
            for loop in MultiThreadedEventLoopGroup.singleton.makeIterator() {
                try await loop.submit {}.get()
            }
        }
        #expect(outcome.withLock { $0 } == nil, "still waiting its turn, not failed")
        // Drain the queue: the fillers first, in order, then the client's try.
        let accepted = Mutex<Int32>(-1)
        let fillers = queued.count
        Thread.detachNewThread {
            for _ in 0..<fillers { close(accept(listener, nil, nil)) }
            let client = accept(listener, nil, nil)
            let hello = Self.hello
            _ = hello.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            accepted.withLock { $0 = client }
        }
        await waitUntil("the client connected") { outcome.withLock { $0 } != nil }
        let client = try #require(try outcome.withLock { $0 }?.get())
        #expect(client.hello == InspectorHello(pid: 1, process: "fake"))
        client.close()
        close(accepted.withLock { $0 })
    }
    #endif

    /// Only runs where permissions apply (not as root, which any mode lets through); the mapping
    /// of the system's error is checked everywhere below.
    @Test(.enabled(if: geteuid() != 0)) func aSocketOfAnotherUser() async throws {
        let server = try LedgerServer.start(at: path, ledger: Ledger(clock: ManualClock()))
        defer { server.stop() }
        chmod(path, 0o000)
        await #expect(throws: LedgerClientError.permissionDenied(path: path)) {
            try await LedgerClient.connect(to: path)
        }
    }

    @Test func systemErrorsReadAsOneClearError() {
        func mapped(_ code: Int32) -> LedgerClientError {
            LedgerClient.connectError(IOError(errnoCode: code, reason: "connect"), path: "/p")
        }
        #expect(mapped(EACCES) == .permissionDenied(path: "/p"))
        #expect(mapped(ECONNREFUSED) == .connectionRefused(path: "/p"))
        #expect(mapped(ENOENT) == .missing(path: "/p"))
        #expect(mapped(ENOTSOCK) == .notASocket(path: "/p"))
        #expect(mapped(EIO) == .system(operation: "connect", reason: "Input/output error"))
        #expect(
            LedgerClient.connectError(SocketAddressError.unixDomainSocketPathTooLong, path: "/p")
                == .pathTooLong(path: "/p"))
        #expect(
            LedgerClientError.permissionDenied(path: "/p").description
                == "/p: permission denied (another user's socket?)")
    }

    @Test func aPeerOfAnotherProtocolVersion() async throws {
        let hello =
            Array(#"{"type":"hello","version":2,"pid":1,"process":"future","compression":"zstd"}"#.utf8) + [
                10
            ]
        #expect(try await connectError(toPeerSending: hello) == .versionMismatch(server: 2, client: 1))
    }

    /// A peer that closes before its hello may be a server stopping, and one that says nothing
    /// for the whole wait may be a busy one: neither is called "not a ledger server".
    @Test func aPeerThatSaysNothing() async throws {
        #expect(
            try await connectError(toPeerSending: [], thenCloses: true, at: path)
                == .closedBeforeHello(path: path))
        let silent = directory("silent.sock")
        let peer = try await FakeServer(path: silent, sends: [])
        defer { peer.stop() }
        // A timeout is the one thing here that only time can show.
        await #expect(throws: LedgerClientError.helloTimedOut(path: silent, waited: .milliseconds(20))) {
            try await LedgerClient.connect(to: silent, helloTimeout: .milliseconds(20))
        }
        #expect(
            LedgerClientError.helloTimedOut(path: "/p", waited: .seconds(30)).description
                == "timed out waiting for /p to say hello (30 s): is the server busy?")
        #expect(
            LedgerClientError.closedBeforeHello(path: "/p").description
                == "/p closed the connection before saying hello (is the server stopping?)")
        #expect(
            LedgerClientError.busy(path: "/p", waited: .milliseconds(1_500)).description
                == "/p is busy: no turn to connect in 1.5 s (its queue of connections is full)")
    }

    /// A hello that comes late — the server busy — is waited for: here the peer accepts, and says
    /// hello only once the client has been waiting for it through several turns of every loop.
    @Test func aHelloThatComesLateIsWaitedFor() async throws {
        let listener = streamSocket()
        defer { close(listener) }
        #expect(withAddress(path) { bind(listener, $0, $1) } == 0)
        #expect(listen(listener, 1) == 0)
        let outcome = Mutex<Result<LedgerClient, LedgerClientError>?>(nil)
        // A wait far longer than the test: a loaded machine slows it, and must not fail it.
        LedgerClient.connect(
            to: path, helloTimeout: .seconds(3_600), queue: DispatchQueue(label: "late"), events: { _ in }
        ) { result in
            outcome.withLock { $0 = result }
        }
        let accepted = accept(listener, nil, nil)
        defer { close(accepted) }
        for _ in 0..<3 {
            for loop in MultiThreadedEventLoopGroup.singleton.makeIterator() {
                try await loop.submit {}.get()
            }
        }
        #expect(outcome.withLock { $0 } == nil, "still waiting for the hello, not failed")
        let hello = Self.hello
        _ = hello.withUnsafeBytes { write(accepted, $0.baseAddress, $0.count) }
        await waitUntil("the client connected") { outcome.withLock { $0 } != nil }
        let client = try #require(try outcome.withLock { $0 }?.get())
        #expect(client.hello == InspectorHello(pid: 1, process: "fake"))
        client.close()
    }

    /// What the peer says first: a line that is no message of the protocol is another kind of
    /// server; a message of the protocol out of order is a broken ledger server.
    @Test func aFirstLineThatIsNotAHello() async throws {
        for foreign in ["SSH-2.0-OpenSSH\r\n", "HTTP/1.1 400 Bad Request\r\n", #"{"jsonrpc":"2.0"}"# + "\n"] {
            let path = freshPath()
            #expect(
                try await connectError(toPeerSending: Array(foreign.utf8), at: path)
                    == .notALedgerServer(path: path), "\(foreign)")
        }
        #expect(
            LedgerClientError.notALedgerServer(path: "/p").description
                == "/p answered with something other than a hello: not a Tether ledger server")
        let snapshot = InspectorMessage.snapshot(InspectorSnapshot()).encodedLine()
        #expect(
            try await connectError(toPeerSending: snapshot) == .malformedLine("a snapshot before the hello"))
        #expect(
            try await connectError(toPeerSending: Array(#"{"type":"hello","version":1}"#.utf8) + [10])
                == .malformedLine("hello: missing pid"))
        let long = try await connectError(toPeerSending: Array(repeating: 65, count: 1_001))
        #expect(long == .lineTooLong(limit: 1_000), "\(String(describing: long))")
    }

    @Test func aMalformedLineAfterTheHelloEndsTheConnection() async throws {
        let good = InspectorMessage.snapshot(InspectorSnapshot(sequence: 1)).encodedLine()
        let (snapshots, reason) = try await disconnect(
            afterHelloPeerSends: good + Array("{\"type\":\"snapshot\"}\n".utf8))
        #expect(snapshots.map(\.sequence) == [1])
        #expect(reason == .failed(.malformedLine("snapshot: missing time")))
    }

    @Test func anOverLongLineAfterTheHelloEndsTheConnection() async throws {
        let (snapshots, reason) = try await disconnect(
            afterHelloPeerSends: Array(repeating: 32, count: 5_000), limit: 1_000)
        #expect(snapshots.isEmpty)
        #expect(reason == .failed(.lineTooLong(limit: 1_000)))
        #expect(reason?.description == "the server sent a line longer than 1000 bytes")
    }

    @Test func aSecondHelloEndsTheConnection() async throws {
        let (_, reason) = try await disconnect(afterHelloPeerSends: Self.hello)
        #expect(reason == .failed(.malformedLine("a second hello")))
    }

    /// A message type a later server may add is skipped; what follows still arrives.
    @Test func aLaterMessageTypeIsSkipped() async throws {
        let peer = try await FakeServer(
            path: path,
            sends: Self.hello + Array(#"{"type":"gauge","owner":"A#1"}"#.utf8) + [10]
                + InspectorMessage.snapshot(InspectorSnapshot(sequence: 5)).encodedLine())
        defer { peer.stop() }
        let client = try await LedgerClient.connect(to: path)
        let log = EventLog(client)
        #expect(await log.waitForSnapshot()?.sequence == 5)
        client.close()
        #expect(await log.waitForDisconnect() == .closedByClient)
        #expect(log.events.count == 2)
    }

    /// A leak report arrives as an event between snapshots.
    @Test func aLeakReportArrivesAsAnEvent() async throws {
        let peer = try await FakeServer(
            path: path,
            sends: Self.hello + InspectorMessage.leak(WireTests.report).encodedLine()
                + InspectorMessage.snapshot(InspectorSnapshot(sequence: 2)).encodedLine())
        defer { peer.stop() }
        let client = try await LedgerClient.connect(to: path)
        let log = EventLog(client)
        await log.waitForSnapshot()
        #expect(log.reports == [WireTests.report])
        client.close()
        #expect(await log.waitForDisconnect() == .closedByClient)
    }

    /// A partial line at the end is the peer dying mid-line: the connection closed, no error.
    @Test func aPeerThatDiesMidLineClosesTheConnection() async throws {
        let peer = try await FakeServer(
            path: path, sends: Self.hello + Array(#"{"type":"snap"#.utf8), thenCloses: true)
        defer { peer.stop() }
        let client = try await LedgerClient.connect(to: path)
        #expect(await EventLog(client).waitForDisconnect() == .serverClosed)
    }

    /// The whole client, over a socket, against seeded random streams after a hello: each ends
    /// in one `.disconnected`, whatever came.
    @Test func randomStreamsEndCleanly() async throws {
        var random = SeededGenerator(seed: 77)
        for round in 0..<60 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                var line = DecoderFuzzTests.validLines.randomElement(using: &random)!
                if Bool.random(using: &random) { DecoderFuzzTests.mutate(&line, using: &random) }
                bytes += line + (Int.random(in: 0..<10, using: &random) == 0 ? [] : [10])
            }
            let path = directory("r\(round).sock")
            let peer = try await FakeServer(path: path, sends: Self.hello + bytes, thenCloses: true)
            let client = try await LedgerClient.connect(to: path, maximumLineLength: 4_096)
            let log = EventLog(client)
            let reason = await log.waitForDisconnect()
            #expect(reason != nil && reason != .closedByClient)
            #expect(log.events.filter { if case .disconnected = $0 { true } else { false } }.count == 1)
            peer.stop()
        }
    }
}
