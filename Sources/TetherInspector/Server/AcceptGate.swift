import NIOCore

/// Keeps a listening channel from accepting more than `maximum` connections open at once.
///
/// While that many are open it withholds the listener's reads — its accepts — so the next clients
/// wait unaccepted in the kernel's queue of connections, and each gets its hello as soon as a
/// place frees up; once the queue is full too, a new client's connect fails with `EAGAIN` and the
/// client tries again. Nothing past the cap holds a file descriptor of the server, so clients
/// that connect and never leave cannot exhaust them (a server out of descriptors spins its loop
/// on the connection it cannot accept). The listener accepts one connection per read
/// (`maxMessagesPerRead` 1), so the count is checked before each.
///
/// Confined to the listener's event loop, like every channel handler; the connections' closes
/// are hopped onto it.
final class AcceptGate: ChannelDuplexHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel
    typealias OutboundIn = Never

    private let maximum: Int
    private var open = 0
    /// Whether a read was asked for and withheld: the next close asks for it.
    private var withheld = false
    private var context: ChannelHandlerContext?

    init(maximum: Int) {
        self.maximum = maximum
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let connection = unwrapInboundIn(data)
        open += 1
        let gate = NIOLoopBound(self, eventLoop: context.eventLoop)
        connection.closeFuture.hop(to: context.eventLoop).whenComplete { _ in gate.value.closed() }
        context.fireChannelRead(data)
    }

    func read(context: ChannelHandlerContext) {
        guard open < maximum else {
            withheld = true
            return
        }
        context.read()
    }

    private func closed() {
        open -= 1
        guard withheld, open < maximum, let context else { return }
        withheld = false
        context.read()
    }
}
