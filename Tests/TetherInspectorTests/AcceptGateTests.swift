import NIOCore
import NIOEmbedded
import Testing

@testable import TetherInspector

/// Counts the reads that reach the head of a listener's pipeline: its accepts.
private final class ReadCounter: ChannelOutboundHandler {
    typealias OutboundIn = Never
    var reads = 0

    func read(context: ChannelHandlerContext) {
        reads += 1
        context.read()
    }
}

/// The gate on an embedded listener, whose accepted connections are written in by hand.
@Suite struct AcceptGateTests {
    /// While the most connections are open, the listener's reads are withheld: the next clients
    /// wait in the kernel's queue. The first to close lets the withheld read go on.
    @Test func readsAreWithheldWhileTheMostAreOpen() throws {
        let loop = EmbeddedEventLoop()
        let listener = EmbeddedChannel(loop: loop)
        let counter = ReadCounter()
        try listener.pipeline.syncOperations.addHandler(counter)
        try listener.pipeline.syncOperations.addHandler(AcceptGate(maximum: 2))
        let connections = [EmbeddedChannel(loop: loop), EmbeddedChannel(loop: loop)]

        listener.read()
        #expect(counter.reads == 1)
        try listener.writeInbound(connections[0] as any Channel)
        listener.read()
        #expect(counter.reads == 2, "one open of two: accepting")
        try listener.writeInbound(connections[1] as any Channel)
        listener.read()
        listener.read()
        #expect(counter.reads == 2, "two open: withheld")

        try connections[0].close().wait()
        loop.run()
        #expect(counter.reads == 3, "a place freed: the withheld read goes on")
        listener.read()
        #expect(counter.reads == 4)
        try connections[1].close().wait()
        loop.run()
        #expect(counter.reads == 4, "nothing was withheld: no read of its own")
        _ = try listener.finish()
    }
}
