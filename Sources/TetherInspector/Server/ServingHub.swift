import NIOCore
import NIOPosix
import Tether

/// The serving side of a ``LedgerServer``: its clients, its registration with the ledger and
/// the pacing of snapshots.
///
/// Confined to one event loop, the one the listening channel and every client channel run on:
/// its state is in a `NIOLoopBoundBox`, which checks that. The ledger's change handler, called on
/// whichever thread changed the ledger, only hops onto the loop. Snapshots are taken and encoded
/// on NIO's thread pool, one at a time, and sent from the loop: however big the ledger, the loop
/// stays free to accept clients and say hello to them.
///
/// It observes the ledger only while a client is connected: registering with `onChange` makes
/// every change of the ledger pay for a check, so the first client registers (with `onChange`,
/// and with `onLeak` for the leak reports) and the last one to leave cancels.
final class ServingHub: Sendable {
    /// Takes the snapshot numbered `sequence` of a ledger, as a line; called off the loop.
    typealias SnapshotTaker = @Sendable (_ ledger: Ledger, _ sequence: Int) -> ByteBuffer

    /// The ledger as it is now, encoded.
    static let encodeSnapshot: SnapshotTaker = { ledger, sequence in
        let snapshot = InspectorSnapshot(ledger.snapshotRearmingOnChange(), sequence: sequence)
        return ByteBuffer(bytes: InspectorMessage.snapshot(snapshot).encodedLine())
    }

    let ledger: Ledger
    let loop: any EventLoop
    /// The hello line, encoded once.
    private let hello: ByteBuffer
    private let takeSnapshot: SnapshotTaker
    private let state: NIOLoopBoundBox<State>

    private struct State {
        var clients: [ObjectIdentifier: SnapshotWriter] = [:]
        /// The `onChange` and `onLeak` registrations, while a client is connected.
        var registrations: [AnyCancellable] = []
        var timer: Scheduled<Void>?
        var pacer: SnapshotPacer
        /// The number of the last snapshot started.
        var sequence = 0
        var stopped = false
    }

    init(
        ledger: Ledger, loop: any EventLoop, interval: TimeAmount, hello: InspectorHello,
        takeSnapshot: @escaping SnapshotTaker = ServingHub.encodeSnapshot
    ) {
        self.ledger = ledger
        self.loop = loop
        self.hello = ByteBuffer(bytes: InspectorMessage.hello(hello).encodedLine())
        self.takeSnapshot = takeSnapshot
        state = .makeBoxSendingValue(State(pacer: SnapshotPacer(interval: interval)), eventLoop: loop)
    }

    // MARK: - On the loop

    /// A client connected: it gets the hello at once, whatever snapshot is being taken, and the
    /// ledger at the pace changes get it (a snapshot started after it joined); the first client
    /// starts the observation of the ledger.
    func join(_ client: SnapshotWriter) {
        guard !state.value.stopped else {
            client.close()
            return
        }
        let first = state.value.clients.isEmpty
        state.value.clients[ObjectIdentifier(client)] = client
        client.write(hello)
        client.firstSequence = state.value.sequence + 1
        if first {
            // Registered before the snapshot is taken: a change after it calls the handler.
            let changes = ledger.onChange { [weak self] in
                guard let self else { return }
                self.loop.execute { self.ledgerChanged() }
            }
            // Encoded on the verdict's thread, sent from the loop.
            let leaks = ledger.onLeak { [weak self] report in
                guard let self else { return }
                let line = ByteBuffer(bytes: InspectorMessage.leak(InspectorLeakReport(report)).encodedLine())
                self.loop.execute { self.leakFound(line) }
            }
            state.value.registrations = [changes, leaks]
        }
        act(state.value.pacer.snapshotWanted(at: .now()))
    }
    /// A client's channel closed; the last one ends the observation of the ledger.
    func leave(_ client: SnapshotWriter) {
        guard state.value.clients.removeValue(forKey: ObjectIdentifier(client)) != nil,
            state.value.clients.isEmpty
        else { return }
        let registrations = state.value.registrations
        let timer = state.value.timer
        state.value.registrations = []
        state.value.timer = nil
        state.value.pacer.stoppedObserving()
        timer?.cancel()
        for registration in registrations { registration.cancel() }
    }

    /// Stops serving: closes every client (their `leave` ends the observation).
    func stop() {
        state.value.stopped = true
        for client in state.value.clients.values { client.close() }
    }

    /// Whether the hub observes the ledger now (for tests).
    var isObservingLedger: Bool { !state.value.registrations.isEmpty }

    /// How many clients are connected now (for tests).
    var clientCount: Int { state.value.clients.count }

    /// How many snapshots were started so far (for tests).
    var snapshotsTaken: Int { state.value.sequence }

    /// Whether a timer waits to send a snapshot (for tests: none while nothing changes).
    var isTimerArmed: Bool { state.value.timer != nil }

    /// A leak report, as a line: each client that keeps up gets it now. One that is behind does
    /// not (its snapshot carries the leak), so a stuck client's buffer never grows with reports.
    private func leakFound(_ line: ByteBuffer) {
        for client in state.value.clients.values { client.sendIfWritable(line) }
    }

    private func ledgerChanged() {
        guard !state.value.clients.isEmpty else { return }
        act(state.value.pacer.snapshotWanted(at: .now()))
    }

    private func act(_ action: SnapshotPacer.Action) {
        switch action {
        case .take:
            state.value.sequence += 1
            let sequence = state.value.sequence
            let (ledger, takeSnapshot) = (ledger, takeSnapshot)
            NIOThreadPool.singleton.runIfActive(eventLoop: loop) { takeSnapshot(ledger, sequence) }
                .whenComplete { [self] result in snapshotTaken(try? result.get(), sequence: sequence) }
        case .arm(let deadline):
            state.value.timer = loop.scheduleTask(deadline: deadline) { [self] in
                state.value.timer = nil
                guard !state.value.clients.isEmpty else { return }
                act(state.value.pacer.timerFired())
            }
        case .wait:
            break
        }
    }

    /// A snapshot is ready (nil: the thread pool was stopped): each client that joined before it
    /// was started gets it. (The next one is wanted only by a client connected now: one that
    /// joined since, or a change seen while one is connected.)
    private func snapshotTaken(_ line: ByteBuffer?, sequence: Int) {
        if let line {
            for client in state.value.clients.values where client.firstSequence <= sequence {
                client.offer(line)
            }
        }
        act(state.value.pacer.taken(at: .now()))
    }
}

/// One client's connection: writes the hello, the snapshots — keeping only the newest one not yet
/// written — and the leak reports it keeps up with, and ignores whatever the client sends.
///
/// A client that reads slowly (or not at all) fills its socket and then NIO's outbound buffer;
/// the channel turns unwritable and snapshots wait here, each replacing the last, until it is
/// writable again. So a stuck client costs at most two snapshots of memory and never blocks the
/// loop or the program. Confined to the hub's event loop, like every channel handler.
final class SnapshotWriter: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let hub: ServingHub
    /// The first snapshot it may get: one started after it joined.
    var firstSequence = Int.max
    private var context: ChannelHandlerContext?
    private var pending: ByteBuffer?
    private var joined = false
    /// Whether a snapshot has been written: a leak line goes out only after the first, as the
    /// protocol orders them (the leak is in the next snapshots too).
    private var hasSentSnapshot = false

    init(hub: ServingHub) {
        self.hub = hub
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { joinOnce() }
    }

    func channelActive(context: ChannelHandlerContext) {
        joinOnce()
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        pending = nil
        if joined { hub.leave(self) }
        self.context = nil
        context.fireChannelInactive()
    }

    /// Read-only protocol: what the client sends is dropped unread.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    /// A client that closed its sending side (`nc -U path < /dev/null`) still reads.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event { return }
        context.fireUserInboundEventTriggered(event)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        flushIfWritable()
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// Writes `line` now, whatever the channel's writability: the hello, which must not be
    /// replaced by a snapshot.
    func write(_ line: ByteBuffer) {
        context?.writeAndFlush(wrapOutboundOut(line), promise: nil)
    }

    /// Writes `line` now if a snapshot has been written, none waits and the channel is writable;
    /// drops it otherwise.
    func sendIfWritable(_ line: ByteBuffer) {
        guard hasSentSnapshot, let context, context.channel.isWritable, pending == nil else { return }
        context.writeAndFlush(wrapOutboundOut(line), promise: nil)
    }

    /// Makes `line` the next snapshot to write, replacing one not yet written.
    func offer(_ line: ByteBuffer) {
        pending = line
        flushIfWritable()
    }

    func close() {
        context?.close(promise: nil)
    }

    private func joinOnce() {
        guard !joined else { return }
        joined = true
        hub.join(self)
    }

    private func flushIfWritable() {
        guard let context, context.channel.isWritable, let line = pending else { return }
        pending = nil
        hasSentSnapshot = true
        context.writeAndFlush(wrapOutboundOut(line), promise: nil)
    }
}
