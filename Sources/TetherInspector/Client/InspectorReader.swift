import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a connection's lines: the first must be a hello of this protocol version, which
/// fulfills the `hello` promise; each later snapshot or leak report becomes an event. Any error ends the
/// connection with one `.disconnected` event, and ends the stream.
///
/// Confined to the connection's event loop, like every channel handler; it calls out only to
/// the promise and to the stream's continuation, both safe from any thread.
final class InspectorReader: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private enum Phase {
        case awaitingHello
        case streaming
        case finished
    }

    private let path: String
    private let hello: EventLoopPromise<InspectorHello>
    private let continuation: AsyncStream<LedgerClient.Event>.Continuation
    private let helloTimeout: TimeAmount
    private var phase = Phase.awaitingHello
    private var timeout: Scheduled<Void>?
    private var context: ChannelHandlerContext?

    init(
        path: String, hello: EventLoopPromise<InspectorHello>,
        continuation: AsyncStream<LedgerClient.Event>.Continuation, helloTimeout: TimeAmount
    ) {
        self.path = path
        self.hello = hello
        self.continuation = continuation
        self.helloTimeout = helloTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        // The one timer of a connection: cancelled by the hello, so an idle client arms none.
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        timeout = context.eventLoop.scheduleTask(in: helloTimeout) {
            loopBound.value.finish(.failed(.noHello(path: loopBound.value.path)))
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let line = unwrapInboundIn(data)
        guard phase != .finished else { return }
        let message: InspectorMessage?
        do {
            message = try InspectorMessage.decode(line: line.readableBytesView)
        } catch {
            finish(.failed(error))
            return
        }
        switch (phase, message) {
        case (_, nil):
            break  // a message type of a later addition to this version: skipped
        case (.awaitingHello, .hello(let greeting)?):
            phase = .streaming
            timeout?.cancel()
            timeout = nil
            hello.succeed(greeting)
        case (.awaitingHello, .snapshot?):
            finish(.failed(.malformedLine("a snapshot before the hello")))
        case (.awaitingHello, .leak?):
            finish(.failed(.malformedLine("a leak before the hello")))
        case (.streaming, .snapshot(let snapshot)?):
            continuation.yield(.snapshot(snapshot))
        case (.streaming, .leak(let report)?):
            continuation.yield(.leak(report))
        case (.streaming, .hello?):
            finish(.failed(.malformedLine("a second hello")))
        case (.finished, _):
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(phase == .awaitingHello ? .failed(.noHello(path: path)) : .serverClosed)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case let error as LineDecoder.LineTooLong:
            finish(.failed(.lineTooLong(limit: error.limit)))
        case let error as IOError:
            // A reset is the server's process ending while we read: closed, not an error of ours.
            let reason = Errno(error.errnoCode).description
            finish(
                error.errnoCode == ECONNRESET
                    ? .serverClosed : .failed(.system(operation: "read", reason: reason)))
        default:
            finish(.failed(.system(operation: "read", reason: String(describing: error))))
        }
    }

    /// Asks the reader to close the connection: ``LedgerClient/close()``.
    struct CloseRequest: Sendable {}

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is CloseRequest {
            finish(.closedByClient)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    /// Ends the connection once: fails the hello if it had not come, or says why it ended.
    func finish(_ reason: LedgerClient.DisconnectReason) {
        let was = phase
        guard was != .finished else { return }
        phase = .finished
        timeout?.cancel()
        timeout = nil
        context?.close(promise: nil)
        if was == .awaitingHello {
            if case .failed(let error) = reason {
                hello.fail(error)
            } else {
                hello.fail(LedgerClientError.noHello(path: path))
            }
        } else {
            continuation.yield(.disconnected(reason))
            continuation.finish()
        }
    }
}
