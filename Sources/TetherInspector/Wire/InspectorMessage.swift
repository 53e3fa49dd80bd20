import Foundation

/// One line of the inspector protocol: newline-delimited JSON objects, each with a `type`.
///
/// A server sends a `hello` first, then `snapshot`s, and a `leak` as each leak is found (see
/// <doc:InspectorProtocol>). A reader skips a line whose `type` it does not know, so a message
/// can join the protocol without breaking readers of this version (`leak` joined that way); a
/// change that would break them raises ``protocolVersion``.
///
/// ```swift
/// let line = InspectorMessage.snapshot(InspectorSnapshot(ledger.snapshotRearmingOnChange())).encodedLine()
/// let message = try InspectorMessage.decode(line: line.dropLast())   // .snapshot(…)
/// ```
///
/// A value: `Sendable`, safe to hand to any thread or actor.
public enum InspectorMessage: Sendable, Equatable {
    case hello(InspectorHello)
    case snapshot(InspectorSnapshot)
    /// A leak the serving ledger has just found.
    case leak(InspectorLeakReport)

    /// The version of the protocol this library speaks, sent in every hello.
    public static let protocolVersion = 1

    /// The message as one line of JSON, its newline included.
    public func encodedLine() -> [UInt8] {
        // Encoding values this module built cannot fail: every field is a string, number, bool
        // or an array or object of them.
        let encoder = JSONEncoder()
        // Sorted: the same value is the same line, in every process.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var bytes = (try? encoder.encode(self)).map { [UInt8]($0) } ?? []
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// Decodes one line, without its newline.
    ///
    /// - Returns: The message, or nil when the line is a JSON object of a `type` this version
    ///   does not know (a reader skips it).
    /// - Throws: ``LedgerClientError/versionMismatch(server:client:)`` for a hello of another
    ///   version; ``LedgerClientError/malformedLine(_:)`` for anything that is not a message of
    ///   this version. Never traps, whatever the bytes.
    public static func decode(line: some Collection<UInt8>) throws(LedgerClientError) -> InspectorMessage? {
        let data = Data(line)
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: data)
        } catch {
            throw .malformedLine(Self.reason(error))
        }
        do {
            switch header.type {
            case "hello":
                // Checked before the rest: another version may have other fields.
                guard header.version == protocolVersion else {
                    throw LedgerClientError.versionMismatch(
                        server: header.version ?? 0, client: protocolVersion)
                }
                return .hello(try JSONDecoder().decode(InspectorHello.self, from: data))
            case "snapshot":
                return .snapshot(try JSONDecoder().decode(InspectorSnapshot.self, from: data))
            case "leak":
                return .leak(try JSONDecoder().decode(InspectorLeakReport.self, from: data))
            default:
                return nil
            }
        } catch let error as LedgerClientError {
            throw error
        } catch {
            throw .malformedLine("\(header.type): \(Self.reason(error))")
        }
    }

    /// What every line has: its type, and a hello's version.
    private struct Header: Decodable {
        var type: String
        var version: Int?
    }

    /// A decoding error in one line: where, and what was wrong.
    static func reason(_ error: any Error) -> String {
        let text: String
        switch error {
        case DecodingError.dataCorrupted(let context):
            text =
                context.codingPath.isEmpty && context.debugDescription.contains("valid JSON")
                // Also what Foundation says of a number that does not fit its field (1.5 for an Int).
                ? "not valid JSON, or a number that does not fit its field"
                : "\(path(context.codingPath)): \(context.debugDescription)"
        case DecodingError.keyNotFound(let key, let context):
            text = "missing \(path(context.codingPath + [key]))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            text = "\(path(context.codingPath)): \(context.debugDescription)"
        default:
            text = String(describing: error)
        }
        return String(text.map { $0.isNewline ? " " : $0 }.prefix(200))
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        guard !keys.isEmpty else { return "the line" }
        let text = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return text.hasPrefix(".") ? String(text.dropFirst()) : text
    }
}

extension InspectorMessage: Codable {
    private enum Envelope: String, CodingKey { case type }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Envelope.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "hello": self = .hello(try InspectorHello(from: decoder))
        case "snapshot": self = .snapshot(try InspectorSnapshot(from: decoder))
        case "leak": self = .leak(try InspectorLeakReport(from: decoder))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "unknown message type \(type)")
        }
    }

    /// The payload's fields and `type`, in one flat object: `{"type":"hello","version":1,…}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Envelope.self)
        switch self {
        case .hello(let hello):
            try container.encode("hello", forKey: .type)
            try hello.encode(to: encoder)
        case .snapshot(let snapshot):
            try container.encode("snapshot", forKey: .type)
            try snapshot.encode(to: encoder)
        case .leak(let report):
            try container.encode("leak", forKey: .type)
            try report.encode(to: encoder)
        }
    }
}
