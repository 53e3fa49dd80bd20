import NIOCore
import NIOPosix
import Testing

@testable import TetherInspector

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls `body` with a Unix socket address for `path`.
func withAddress<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (index, byte) in bytes.prefix(raw.count - 1).enumerated() { raw[index] = byte }
    }
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
    }
}

func streamSocket() -> Int32 {
    #if canImport(Glibc)
    socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #else
    socket(AF_UNIX, SOCK_STREAM, 0)
    #endif
}

/// Leaves a socket file at `path` that nobody listens on: what a process that died leaves.
func makeStaleSocket(at path: String) throws {
    let descriptor = streamSocket()
    defer { close(descriptor) }
    let bound = withAddress(path) { bind(descriptor, $0, $1) }
    #expect(bound == 0, "bind: \(errno)")
}

/// A client made of plain system calls that reads only when asked: the slow or stuck client,
/// and the one that sends garbage.
final class RawClient {
    let descriptor: Int32
    private var received: [UInt8] = []

    init(path: String) throws {
        descriptor = streamSocket()
        let connected = withAddress(path) { connect(descriptor, $0, $1) }
        guard connected == 0 else { throw IOError(errnoCode: errno, reason: "connect") }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(descriptor) }

    /// Sends what fits without blocking; returns how many bytes went.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Int {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            sent += count
        }
        return sent
    }

    func shutdownSending() {
        #if canImport(Glibc)
        shutdown(descriptor, Int32(SHUT_WR))
        #else
        shutdown(descriptor, SHUT_WR)
        #endif
    }

    /// Whether the server has closed the connection, as far as has been read.
    private(set) var isClosedByServer = false

    /// The complete lines received so far, reading what is there now.
    func lines() -> [String] {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { isClosedByServer = true }
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        return received.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast()
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// The snapshots among the lines received so far.
    func snapshots() -> [InspectorSnapshot] {
        lines().compactMap {
            if case .snapshot(let snapshot)? = try? InspectorMessage.decode(line: Array($0.utf8)) {
                snapshot
            } else {
                nil
            }
        }
    }
}

/// A peer that is not a ledger server, or a broken one: on each connection it sends `bytes`,
/// then closes if asked.
final class FakeServer: Sendable {
    let channel: any Channel

    init(path: String, sends bytes: [UInt8], thenCloses: Bool = false) async throws {
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        Sender(bytes: bytes, thenCloses: thenCloses))
                }
            }
            .bind(unixDomainSocketPath: path).get()
    }

    /// Stops listening. NIO removes the socket file when the channel has closed, a moment later:
    /// a test binds the next fake server at another path.
    func stop() {
        channel.close(promise: nil)
    }

    private final class Sender: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let bytes: [UInt8]
        let thenCloses: Bool

        init(bytes: [UInt8], thenCloses: Bool) {
            self.bytes = bytes
            self.thenCloses = thenCloses
        }

        func channelActive(context: ChannelHandlerContext) {
            let done = context.writeAndFlush(NIOAny(ByteBuffer(bytes: bytes)))
            if thenCloses {
                let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
                done.whenComplete { _ in bound.value.close(promise: nil) }
            }
        }
    }
}
