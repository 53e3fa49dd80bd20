/// Why a ``LedgerServer`` could not start. Each reads as one line for a person.
public enum LedgerServerError: Error, Equatable, CustomStringConvertible {
    /// Something other than a socket is at the path; the server never replaces it.
    case notASocket(path: String)
    /// A live process serves the path (a connection to it succeeded).
    case alreadyServed(path: String)
    /// The socket at the path belongs to someone this process may not connect to.
    case permissionDenied(path: String)
    /// The path, or the temporary path the server binds first (its directory plus
    /// ``LedgerServer/temporaryPathOverhead`` bytes), exceeds what a Unix socket address holds.
    case pathTooLong(path: String, limit: Int)
    /// A system call failed: what was being done, and the system's word for why.
    case system(path: String, operation: String, reason: String)

    public var description: String {
        switch self {
        case .notASocket(let path):
            "\(path) exists and is not a socket: not replacing it"
        case .alreadyServed(let path):
            "\(path) is served by another live process"
        case .permissionDenied(let path):
            "\(path): permission denied"
        case .pathTooLong(let path, let limit):
            "\(path): too long for a Unix socket (the server needs it, and its directory plus "
                + "\(LedgerServer.temporaryPathOverhead) bytes, to fit in \(limit) bytes)"
        case .system(let path, let operation, let reason):
            "\(path): \(operation) failed: \(reason)"
        }
    }
}

/// Why a ``LedgerClient`` could not connect, or why its connection ended. Each reads as one line
/// for a person.
public enum LedgerClientError: Error, Equatable, CustomStringConvertible {
    /// Nothing is at the path.
    case missing(path: String)
    /// Something other than a socket is at the path.
    case notASocket(path: String)
    /// The socket, or a directory on its path, is not this user's to open.
    case permissionDenied(path: String)
    /// A socket is at the path but no process serves it (it died, or stopped without cleaning up).
    case connectionRefused(path: String)
    /// The path exceeds what a Unix socket address holds.
    case pathTooLong(path: String)
    /// The server's queue of connections stayed full for as long as the client waited for a turn
    /// to connect: it is live, and busy.
    case busy(path: String, waited: Duration)
    /// No hello came for as long as the client waited: a server too busy to say it yet, or a peer
    /// that says nothing.
    case helloTimedOut(path: String, waited: Duration)
    /// The peer closed the connection before its hello: a server stopping, say.
    case closedBeforeHello(path: String)
    /// The peer's first line is not one of this protocol: whatever serves the path, it is not a
    /// ledger server.
    case notALedgerServer(path: String)
    /// The server speaks another version of the protocol.
    case versionMismatch(server: Int, client: Int)
    /// A line longer than the client's limit, in bytes.
    case lineTooLong(limit: Int)
    /// A line that is not a message of this protocol version: why, in a few words.
    case malformedLine(String)
    /// A system call failed: what was being done, and the system's word for why.
    case system(operation: String, reason: String)

    public var description: String {
        switch self {
        case .missing(let path): "\(path): no such file"
        case .notASocket(let path): "\(path) is not a socket"
        case .permissionDenied(let path): "\(path): permission denied (another user's socket?)"
        case .connectionRefused(let path): "\(path): connection refused (nothing serves it: a stale socket?)"
        case .pathTooLong(let path): "\(path): too long for a Unix socket address"
        case .busy(let path, let waited):
            "\(path) is busy: no turn to connect in \(Self.text(waited)) (its queue of connections is full)"
        case .helloTimedOut(let path, let waited):
            "timed out waiting for \(path) to say hello (\(Self.text(waited))): is the server busy?"
        case .closedBeforeHello(let path):
            "\(path) closed the connection before saying hello (is the server stopping?)"
        case .notALedgerServer(let path):
            "\(path) answered with something other than a hello: not a Tether ledger server"
        case .versionMismatch(let server, let client):
            "the server speaks inspector protocol version \(server); this client speaks version \(client)"
        case .lineTooLong(let limit): "the server sent a line longer than \(limit) bytes"
        case .malformedLine(let reason): "the server sent a malformed line: \(reason)"
        case .system(let operation, let reason): "\(operation) failed: \(reason)"
        }
    }

    /// A wait, for a person: "30 s", "1.5 s", "20 ms".
    static func text(_ duration: Duration) -> String {
        let milliseconds = duration / .milliseconds(1)
        if milliseconds < 1_000 { return "\(Int(milliseconds.rounded())) ms" }
        let seconds = (milliseconds / 100).rounded() / 10
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}
