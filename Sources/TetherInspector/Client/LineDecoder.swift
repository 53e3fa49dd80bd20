import NIOCore

/// Splits the inbound bytes into lines, each without its newline, and refuses a line longer
/// than `maximumLength` bytes as soon as that many bytes have come without a newline — so a
/// peer cannot make the client buffer without bound.
///
/// A partial line left when the connection closes is dropped: the peer went away mid-line.
struct LineDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    /// The error the decoder throws for a line over the limit.
    struct LineTooLong: Error, Equatable {
        let limit: Int
    }

    let maximumLength: Int
    /// How far the current line was searched for a newline already.
    private var searched = 0

    init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        let start = view.startIndex + searched
        guard let newline = view[start...].firstIndex(of: UInt8(ascii: "\n")) else {
            searched = view.count
            if view.count > maximumLength { throw LineTooLong(limit: maximumLength) }
            return .needMoreData
        }
        let length = newline - view.startIndex
        searched = 0
        if length > maximumLength { throw LineTooLong(limit: maximumLength) }
        let line = buffer.readSlice(length: length)!
        buffer.moveReaderIndex(forwardBy: 1)
        context.fireChannelRead(wrapInboundOut(line))
        return .continue
    }

    mutating func decodeLast(
        context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
    ) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
        return .needMoreData
    }
}
