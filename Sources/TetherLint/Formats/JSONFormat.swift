import Foundation

/// `--format json`: an array of `{file, line, column, rule, message, fix}`, `fix` null when the
/// rule knows none.
enum JSONFormat {
    private struct Entry: Encodable {
        var file: String
        var line: Int
        var column: Int
        var rule: String
        var message: String
        var fix: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(file, forKey: .file)
            try container.encode(line, forKey: .line)
            try container.encode(column, forKey: .column)
            try container.encode(rule, forKey: .rule)
            try container.encode(message, forKey: .message)
            try container.encode(fix, forKey: .fix)
        }

        enum CodingKeys: String, CodingKey { case file, line, column, rule, message, fix }
    }

    static func render(_ findings: [Finding]) -> String {
        let entries = findings.map {
            Entry(
                file: $0.file, line: $0.line, column: $0.column, rule: $0.rule.rawValue, message: $0.message,
                fix: $0.fix)
        }
        return encode(entries)
    }

    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and numbers cannot fail.
        let data = (try? encoder.encode(value)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
