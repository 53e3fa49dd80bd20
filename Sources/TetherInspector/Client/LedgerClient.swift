import Dispatch
import NIOCore
import NIOPosix
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A connection to a ``LedgerServer``: the server's hello, then its snapshots as an
/// `AsyncStream` of ``Event``s.
///
/// ```swift
/// let client = try await LedgerClient.connect(to: "/tmp/myapp.tether")
/// print(client.hello.process, client.hello.pid)
/// for await event in client.events {
///     switch event {
///     case .snapshot(let snapshot): render(snapshot)
///     case .leak(let report): print(report.trace)
///     case .disconnected(let reason): showBanner(reason.description)
///     }
/// }
/// ```
///
/// The stream keeps the newest events a consumer has not taken yet and drops older ones (each
/// snapshot is the whole picture, and carries every current leak), so a busy UI never falls
/// behind; ``Event/disconnected(_:)`` is always the last event. Nothing here blocks the calling
/// thread: reading and decoding run on an event loop of NIO's shared group, and events arrive as
/// values — iterate them on the main actor.
///
/// A program whose idle must cost nothing on Linux connects with
/// ``connect(to:maximumLineLength:helloTimeout:queue:events:completion:)`` instead, and gets the
/// events on a Dispatch queue: there, resuming any `await` from another thread goes through Swift's
/// global executor, whose first use starts Dispatch's worker pool — and the pool's monitor then
/// wakes the process every second, for as long as it runs.
///
/// Lifetime: the connection lasts until the server closes it, ``close()`` is called, or the
/// stream's iteration ends (its task is cancelled, or the stream is released; a client made with
/// the callback `connect` has no stream to end). To reconnect,
/// `connect` again to the same path. Thread-safe.
public final class LedgerClient: Sendable {
    /// What happens on a connection after its hello.
    public enum Event: Sendable, Equatable {
        /// The serving ledger, whole, as it is now.
        case snapshot(InspectorSnapshot)
        /// A leak the serving ledger has just found (it is in the next snapshots' leaks too).
        case leak(InspectorLeakReport)
        /// The connection ended; the last event.
        case disconnected(DisconnectReason)
    }

    /// Why a connection ended.
    public enum DisconnectReason: Sendable, Equatable, CustomStringConvertible {
        /// The server closed it: it stopped serving, or its process ended.
        case serverClosed
        /// This side closed it (``LedgerClient/close()``).
        case closedByClient
        /// The server broke the protocol (an over-long or malformed line), or the connection failed.
        case failed(LedgerClientError)

        public var description: String {
            switch self {
            case .serverClosed: "the server closed the connection"
            case .closedByClient: "closed"
            case .failed(let error): error.description
            }
        }
    }

    /// The longest line a client accepts by default: 16 MiB, a snapshot of some 100,000 entries.
    public static let defaultMaximumLineLength = 16 << 20
    /// How long a client waits for the hello by default: long enough for a server whose machine
    /// is loaded, or that serves its most clients while others leave.
    public static let defaultHelloTimeout = Duration.seconds(30)

    /// The path connected to.
    public let path: String
    /// The server's hello: its protocol version, pid and process name.
    public let hello: InspectorHello
    /// The snapshots as the server sends them, then why the connection ended.
    public let events: AsyncStream<Event>

    private let channel: any Channel

    private init(path: String, hello: InspectorHello, events: AsyncStream<Event>, channel: any Channel) {
        self.path = path
        self.hello = hello
        self.events = events
        self.channel = channel
    }

    /// Connects to the ledger server at `path` and waits for its hello.
    ///
    /// `path` may be a symbolic link to the socket; it is at most 103 bytes long, as for
    /// ``LedgerServer``. A server with more clients arriving at once than it has accepted yet (its
    /// queue of connections full) is tried again, soon at first, then less often, for up to
    /// `helloTimeout` in all. A busy server says hello late — it serves its most clients, or its
    /// machine is loaded — so the wait for the hello is generous; once the hello has come, the
    /// connection waits for the server's snapshots as long as it lasts.
    ///
    /// - Parameters:
    ///   - path: The server's socket.
    ///   - maximumLineLength: The longest line accepted, in bytes; a longer one ends the
    ///     connection with ``LedgerClientError/lineTooLong(limit:)``.
    ///   - helloTimeout: How long to wait for the hello
    ///     (``LedgerClientError/helloTimedOut(path:waited:)``) — and, before that, at most as long
    ///     for a turn to connect to a busy server (``LedgerClientError/busy(path:waited:)``).
    /// - Throws: ``LedgerClientError``: nothing at `path`, not a socket, permission denied,
    ///   connection refused (a stale socket), a path too long, a server busy for the whole wait,
    ///   no hello in time, the connection closed before the hello, a peer that is not a ledger
    ///   server, another protocol version, a malformed or over-long first line.
    public static func connect(
        to path: String, maximumLineLength: Int = defaultMaximumLineLength,
        helloTimeout: Duration = defaultHelloTimeout
    ) async throws(LedgerClientError) -> LedgerClient {
        let (events, continuation) = AsyncStream.makeStream(
            of: Event.self, bufferingPolicy: .bufferingNewest(8))
        let sink = EventSink(deliver: { continuation.yield($0) }, end: { continuation.finish() })
        let opened = try open(
            path, maximumLineLength: maximumLineLength, helloTimeout: helloTimeout, sink: sink)
        let channel: any Channel
        let hello: InspectorHello
        do {
            (channel, hello) = try await opened.get()
        } catch {
            throw error as? LedgerClientError
                ?? .system(operation: "connect", reason: String(describing: error))
        }
        continuation.onTermination = { _ in channel.close(promise: nil) }
        return LedgerClient(path: path, hello: hello, events: events, channel: channel)
    }

    /// Connects to the ledger server at `path` without Swift concurrency: `completion` gets the
    /// client once the server said hello (or why it could not connect), then `events` gets each
    /// event, both on `queue`, in order. The client's ``events`` stream is empty, so the
    /// connection lasts until ``close()`` or the server ends it: releasing the client does not
    /// close it (`events` keeps it, as a callback would).
    ///
    /// ```swift
    /// LedgerClient.connect(to: path, queue: .main, events: { event in show(event) }) { result in
    ///     if case .failure(let error) = result { print(error) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - path: The server's socket.
    ///   - maximumLineLength: The longest line accepted, in bytes, as for the `async` version.
    ///   - helloTimeout: How long to wait for the hello, as for the `async` version.
    ///   - queue: Where `completion` and `events` run.
    ///   - events: Each snapshot and leak report, then `.disconnected` last; called only after
    ///     `completion` succeeded.
    ///   - completion: The client, or a ``LedgerClientError`` as the `async` version throws it.
    public static func connect(
        to path: String, maximumLineLength: Int = defaultMaximumLineLength,
        helloTimeout: Duration = defaultHelloTimeout,
        queue: DispatchQueue, events: @escaping @Sendable (Event) -> Void,
        completion: @escaping @Sendable (Result<LedgerClient, LedgerClientError>) -> Void
    ) {
        let delivery = QueuedDelivery(queue: queue, events: events)
        let sink = EventSink(deliver: delivery.deliver, end: {})
        let opened: EventLoopFuture<(any Channel, InspectorHello)>
        do {
            opened = try open(
                path, maximumLineLength: maximumLineLength, helloTimeout: helloTimeout, sink: sink)
        } catch {
            queue.async { completion(.failure(error)) }
            return
        }
        opened.whenComplete { result in
            let outcome = result.map { channel, hello in
                LedgerClient(path: path, hello: hello, events: AsyncStream { $0.finish() }, channel: channel)
            }.mapError { error in
                error as? LedgerClientError
                    ?? .system(operation: "connect", reason: String(describing: error))
            }
            delivery.complete { completion(outcome) }
        }
    }

    /// Opens a connection whose reader sends its events to `sink`: the channel and the hello once
    /// the server said it, or a ``LedgerClientError``.
    private static func open(
        _ path: String, maximumLineLength: Int, helloTimeout: Duration, sink: EventSink
    ) throws(LedgerClientError) -> EventLoopFuture<(any Channel, InspectorHello)> {
        try checkSocket(at: path)
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        return open(
            path, maximumLineLength: maximumLineLength, helloTimeout: helloTimeout, sink: sink, loop: loop,
            backoff: ConnectBackoff(budget: InspectorReader.timeAmount(helloTimeout)))
    }

    /// One attempt to connect; while the server's queue of connections is full, the next attempt
    /// after `backoff`'s wait, until its budget is spent.
    private static func open(
        _ path: String, maximumLineLength: Int, helloTimeout timeout: Duration, sink: EventSink,
        loop: any EventLoop, backoff: ConnectBackoff
    ) -> EventLoopFuture<(any Channel, InspectorHello)> {
        let helloPromise = loop.makePromise(of: InspectorHello.self)
        return ClientBootstrap(group: loop)
            .channelOption(.allowRemoteHalfClosure, value: false)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let reader = InspectorReader(
                        path: path, hello: helloPromise, sink: sink, helloTimeout: timeout)
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(LineDecoder(maximumLength: maximumLineLength)))
                    try channel.pipeline.syncOperations.addHandler(reader)
                }
            }
            .connect(unixDomainSocketPath: path)
            .flatMap { channel in
                helloPromise.futureResult.map { (channel, $0) }.flatMapError { error in
                    channel.close(promise: nil)
                    sink.end()
                    return loop.makeFailedFuture(
                        error as? LedgerClientError ?? .closedBeforeHello(path: path))
                }
            }
            .flatMapError { error in
                // Connected, then no hello: said above, and the sink is ended.
                if error is LedgerClientError { return loop.makeFailedFuture(error) }
                let mapped = connectError(error, path: path)
                helloPromise.fail(mapped)
                var next = backoff
                if let error = error as? IOError, let delay = next.delay(after: error.errnoCode) {
                    // The server has more clients arriving than it has accepted yet: wait our turn.
                    let backoff = next
                    return loop.scheduleTask(in: delay) {}.futureResult.flatMap {
                        open(
                            path, maximumLineLength: maximumLineLength, helloTimeout: timeout, sink: sink,
                            loop: loop, backoff: backoff)
                    }
                }
                sink.end()
                if let error = error as? IOError, ConnectBackoff.isQueueFull(error.errnoCode) {
                    return loop.makeFailedFuture(LedgerClientError.busy(path: path, waited: timeout))
                }
                return loop.makeFailedFuture(mapped)
            }
    }

    /// Closes the connection; ``events`` ends with `.disconnected(.closedByClient)`. Idempotent.
    public func close() {
        // Through the pipeline, so that the reader, which owns the connection's state, says why
        // it ended; on a connection already closed the request finds no one, and that is fine.
        channel.pipeline.fireUserInboundEventTriggered(InspectorReader.CloseRequest())
    }

    /// One clear error for what is at `path`, before connecting: the server's limit on the path's
    /// length, then what the path names — through a symbolic link, as `connect` goes.
    private static func checkSocket(at path: String) throws(LedgerClientError) {
        guard path.utf8.count <= SocketFile.maximumPathLength else { throw .pathTooLong(path: path) }
        switch SocketFile.target(of: path) {
        case .success(.socket): return
        case .success(.other): throw .notASocket(path: path)
        case .success(.nothing): throw .missing(path: path)
        case .failure(let error):
            switch error.code {
            case ENOTDIR, ELOOP: throw .missing(path: path)
            case EACCES: throw .permissionDenied(path: path)
            case ENAMETOOLONG: throw .pathTooLong(path: path)
            default: throw .system(operation: "stat", reason: error.description)
            }
        }
    }

    static func connectError(_ error: any Error, path: String) -> LedgerClientError {
        if error is SocketAddressError { return .pathTooLong(path: path) }
        guard let error = error as? IOError else {
            return .system(operation: "connect", reason: String(describing: error))
        }
        switch error.errnoCode {
        case ENOENT: return .missing(path: path)
        case EACCES, EPERM: return .permissionDenied(path: path)
        case ECONNREFUSED: return .connectionRefused(path: path)
        case ENOTSOCK: return .notASocket(path: path)
        case let code: return .system(operation: "connect", reason: Errno(code).description)
        }
    }
}

/// A callback connection's deliveries onto its queue: the events read before the connection's
/// outcome is queued are held back, so that `completion` always comes first — the hello and the
/// first snapshot can be read before the connect future's callbacks run.
///
/// Thread-safe: a `Mutex` holds whether the outcome was queued and the events held until then;
/// the queue is called after unlocking.
final class QueuedDelivery: Sendable {
    private let queue: DispatchQueue
    private let events: @Sendable (LedgerClient.Event) -> Void
    private let state = Mutex<(completed: Bool, held: [LedgerClient.Event])>((false, []))

    init(queue: DispatchQueue, events: @escaping @Sendable (LedgerClient.Event) -> Void) {
        self.queue = queue
        self.events = events
    }

    func deliver(_ event: LedgerClient.Event) {
        let now = state.withLock { state -> Bool in
            guard state.completed else {
                state.held.append(event)
                return false
            }
            return true
        }
        guard now else { return }
        let events = events
        queue.async { events(event) }
    }

    /// Queues `outcome`, then the events held until now.
    func complete(_ outcome: @escaping @Sendable () -> Void) {
        queue.async(execute: outcome)
        let held = state.withLock { state in
            state.completed = true
            defer { state.held = [] }
            return state.held
        }
        let events = events
        for event in held { queue.async { events(event) } }
    }
}
