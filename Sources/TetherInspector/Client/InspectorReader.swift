import Foundation
import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a connection's lines: the first must be a hello of this protocol version, which
/// fulfills the `hello` promise; each later snapshot or leak report becomes an event. Any error
/// ends the connection with one `.disconnected` event, and ends the sink.
///
/// Until the hello it tells apart what can go wrong, so that a busy server is never called a
/// foreign one: no hello in `helloTimeout` (``LedgerClientError/helloTimedOut(path:waited:)``),
/// the connection closed first (``LedgerClientError/closedBeforeHello(path:)``), and a first line
/// that is no message of this protocol (``LedgerClientError/notALedgerServer(path:)``). Once the
/// hello has come, it waits for the server's lines as long as the connection lasts.
///
/// Confined to the connection's event loop, like every channel handler; it calls out only to
/// the promise and to its sink, both safe from any thread.
final class InspectorReader: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private enum Phase {
        case awaitingHello
        case streaming
        case finished
    }

    private let path: String
    private let hello: EventLoopPromise<InspectorHello>
    private let sink: EventSink
    private let helloTimeout: Duration
    private var phase = Phase.awaitingHello
    private var timeout: Scheduled<Void>?
    private var context: ChannelHandlerContext?

    init(
        path: String, hello: EventLoopPromise<InspectorHello>, sink: EventSink, helloTimeout: Duration
    ) {
        self.path = path
        self.hello = hello
        self.sink = sink
        self.helloTimeout = helloTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        // The one timer of a connection: cancelled by the hello, so an idle client arms none.
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        let waited = helloTimeout
        timeout = context.eventLoop.scheduleTask(in: Self.timeAmount(helloTimeout)) {
            loopBound.value.finish(.failed(.helloTimedOut(path: loopBound.value.path, waited: waited)))
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        // A connection refused is removed without ever being active: its timer must not outlive it.
        timeout?.cancel()
        timeout = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let line = unwrapInboundIn(data)
        guard phase != .finished else { return }
        let message: InspectorMessage?
        do {
            message = try InspectorMessage.decode(line: line.readableBytesView)
        } catch {
            let foreign = phase == .awaitingHello && !Self.isMessage(line.readableBytesView)
            finish(.failed(foreign ? .notALedgerServer(path: path) : error))
            return
        }
        switch (phase, message) {
        case (_, nil):
            break  // a message type of a later addition to this version: skipped
        case (.awaitingHello, .hello(let greeting)?):
            phase = .streaming
            timeout?.cancel()
            timeout = nil
            // A cancelled task leaves the loop's timer (a timerfd on Linux) armed for its deadline,
            // to wake the loop once then for nothing; a task due sooner re-arms it for now instead,
            // so an idle client's loop sleeps from here on.
            context.eventLoop.scheduleTask(in: .milliseconds(1)) {}
            hello.succeed(greeting)
        case (.awaitingHello, .snapshot?):
            finish(.failed(.malformedLine("a snapshot before the hello")))
        case (.awaitingHello, .leak?):
            finish(.failed(.malformedLine("a leak before the hello")))
        case (.streaming, .snapshot(let snapshot)?):
            sink.deliver(.snapshot(snapshot))
        case (.streaming, .leak(let report)?):
            sink.deliver(.leak(report))
        case (.streaming, .hello?):
            finish(.failed(.malformedLine("a second hello")))
        case (.finished, _):
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(phase == .awaitingHello ? .failed(.closedBeforeHello(path: path)) : .serverClosed)
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
                hello.fail(LedgerClientError.closedBeforeHello(path: path))
            }
        } else {
            sink.deliver(.disconnected(reason))
            sink.end()
        }
    }
}

extension InspectorReader {
    /// A wait as NIO's `TimeAmount`, clamped to a day: any longer is "forever", and would overflow
    /// nanoseconds.
    static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return .zero }
        return .seconds(min(seconds, 86_400)) + .nanoseconds(attoseconds / 1_000_000_000)
    }

    /// Whether `line` is a JSON object with a `type`, as every line of the protocol is: a line
    /// that is not came from something other than a ledger server.
    static func isMessage(_ line: some Collection<UInt8>) -> Bool {
        (try? JSONDecoder().decode(Typed.self, from: Data(line))) != nil
    }

    private struct Typed: Decodable { var type: String }
}

/// Where a connection's events go: into the `events` stream of a client made with `connect`, or
/// onto the queue of one made with `connect(to:queue:events:completion:)`. Both closures are
/// called on the connection's event loop; `end` once, after the last event.
struct EventSink: Sendable {
    let deliver: @Sendable (LedgerClient.Event) -> Void
    let end: @Sendable () -> Void
}
