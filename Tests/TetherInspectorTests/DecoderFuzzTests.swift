import Foundation
import NIOCore
import NIOEmbedded
import TestSupport
import Testing
import Tether

@testable import TetherInspector

/// The client's decoder against what a broken or hostile peer could send: random bytes, JSON-ish
/// token soup, valid lines mutated, deep nesting. Deterministic seeds, thousands of cases; the
/// decoder must return or throw its own error for each, never trap or hang.
@Suite struct DecoderFuzzTests {
    static let validLines: [[UInt8]] = [
        Array(InspectorMessage.hello(InspectorHello(pid: 99, process: "fuzz")).encodedLine().dropLast()),
        Array(InspectorMessage.snapshot(WireTests.full).encodedLine().dropLast()),
        Array(InspectorMessage.snapshot(InspectorSnapshot()).encodedLine().dropLast()),
        Array(InspectorMessage.leak(WireTests.report).encodedLine().dropLast()),
    ]

    static let tokens: [String] = [
        "{", "}", "[", "]", ":", ",", "\"", "\\", " ", "\"type\"", "\"hello\"", "\"snapshot\"", "\"leak\"",
        "\"version\"", "1", "-1", "0", "1e308", "1e400", "-0.0", "99999999999999999999999", "1.5",
        "null", "true", "false", "\"\\u0000\"", "\"\\ud800\"", "\"\\u00e9\"", "\"owners\"", "\"counters\"",
        "\"time\"", "\"leaks\"", "\"events\"", "\"id\"", "\"A#1\"", "\"a:1\"", "\"#\"", "\"kind\"",
        "\"task\"",
        "\u{FF}", "\u{0}", "é", "🙂",
    ]

    /// Decodes `line`; a message that decodes must come back the same through the encoder.
    func check(_ line: [UInt8]) {
        let message: InspectorMessage?
        do {
            message = try InspectorMessage.decode(line: line)
        } catch {
            #expect(!error.description.isEmpty)
            return
        }
        if let message {
            #expect((try? InspectorMessage.decode(line: message.encodedLine().dropLast())) == message)
        }
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func randomBytesNeverTrap(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<1_000 {
            let count = Int.random(in: 0...300, using: &random)
            check((0..<count).map { _ in UInt8.random(in: 0...255, using: &random) })
        }
    }

    @Test(arguments: [5, 6, 7, 8] as [UInt64])
    func tokenSoupNeverTraps(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<1_000 {
            let count = Int.random(in: 0...60, using: &random)
            let text = (0..<count).map { _ in Self.tokens.randomElement(using: &random)! }.joined()
            check(Array(("{\"type\":\"snapshot\"," + text).utf8))
            check(Array(text.utf8))
        }
    }

    @Test(arguments: [9, 10, 11, 12, 13, 14] as [UInt64])
    func mutatedValidLinesNeverTrap(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<1_000 {
            var line = Self.validLines.randomElement(using: &random)!
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                Self.mutate(&line, using: &random)
            }
            check(line)
        }
    }

    /// One random edit: a byte changed, a range dropped, duplicated or cut off, a token inserted.
    static func mutate(_ line: inout [UInt8], using random: inout SeededGenerator) {
        guard !line.isEmpty else {
            line = Array(tokens.randomElement(using: &random)!.utf8)
            return
        }
        let at = Int.random(in: 0..<line.count, using: &random)
        let end = min(line.count, at + Int.random(in: 1...40, using: &random))
        switch Int.random(in: 0..<6, using: &random) {
        case 0: line[at] = UInt8.random(in: 0...255, using: &random)
        case 1: line[at] = Array("{}[]:,\"\\0123456789-e.".utf8).randomElement(using: &random)!
        case 2: line.removeSubrange(at..<end)
        case 3: line.insert(contentsOf: line[at..<end], at: at)
        case 4: line.insert(contentsOf: Array(tokens.randomElement(using: &random)!.utf8), at: at)
        default: line.removeSubrange(at...)
        }
    }

    /// Values of the wrong type in the right places: every field of a valid snapshot, in turn,
    /// replaced by a value of every other JSON type.
    @Test func wrongTypesInEveryFieldAreRejected() throws {
        let valid = try #require(
            try JSONSerialization.jsonObject(with: Data(Self.validLines[1])) as? [String: Any])
        let replacements: [Any] = [NSNull(), 1, -1, 1.5, "text", true, [Any](), [String: Any](), [1, "a"]]
        func variants(of value: Any) -> [Any] {
            switch value {
            case let object as [String: Any]:
                return object.keys.sorted().flatMap { key in
                    (replacements + variants(of: object[key]!)).map { replacement -> Any in
                        var copy = object
                        copy[key] = replacement
                        return copy
                    } + [object.filter { $0.key != key }]
                }
            case let array as [Any] where !array.isEmpty:
                return variants(of: array[0]).map { [$0] + array.dropFirst() }
            default:
                return []
            }
        }
        let all = variants(of: valid)
        #expect(all.count > 400)
        for variant in all {
            check(Array(try JSONSerialization.data(withJSONObject: variant)))
        }
    }

    @Test func deepNestingNeitherTrapsNorRecursesWithoutBound() {
        for depth in [10, 1_000, 100_000] {
            check(Array(String(repeating: "[", count: depth).utf8))
            check(Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8))
            check(
                Array(("{\"type\":\"snapshot\",\"time\":" + String(repeating: "{\"a\":", count: depth)).utf8))
        }
    }

    /// The line splitter, fed the same bytes in random chunks: the lines that come out are the
    /// lines that went in, and a line over the limit is refused whichever chunk completes it.
    @Test(arguments: [21, 22, 23] as [UInt64])
    func lineSplittingIsIndependentOfChunking(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<300 {
            let limit = Int.random(in: 1...64, using: &random)
            let lines = (0..<Int.random(in: 0...8, using: &random)).map { _ in
                (0..<Int.random(in: 0...80, using: &random)).map { _ in
                    UInt8.random(in: 0x20...0x7E, using: &random)
                }
            }
            let bytes = lines.flatMap { $0 + [UInt8(ascii: "\n")] }
            let channel = EmbeddedChannel(handler: ByteToMessageHandler(LineDecoder(maximumLength: limit)))
            var received: [[UInt8]] = []
            var refused = false
            var offset = 0
            while offset < bytes.count, !refused {
                let size = Int.random(in: 1...max(1, bytes.count - offset), using: &random)
                do {
                    try channel.writeInbound(ByteBuffer(bytes: bytes[offset..<offset + size]))
                } catch is LineDecoder.LineTooLong {
                    refused = true
                }
                offset += size
                while let line = try channel.readInbound(as: ByteBuffer.self) {
                    received.append(Array(line.readableBytesView))
                }
            }
            let expected = lines.prefix { $0.count <= limit }
            #expect(refused == (expected.count < lines.count))
            #expect(received == Array(expected))
            _ = try? channel.finish()
        }
    }
}
