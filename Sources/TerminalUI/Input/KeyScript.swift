import Tether

/// One step of a key script: a key, or time passing (`wait:MS`).
///
/// A plain value: `Sendable`.
public enum KeyStep: Hashable, Sendable, CustomStringConvertible {
    case key(Key)
    /// Lets this much time pass (a headless driver advances its clock).
    case wait(Duration)

    public var description: String {
        switch self {
        case .key(let key): key.name
        case .wait(let d):
            "wait:\(d.wholeMilliseconds)"
        }
    }
}

/// Why a key script could not be read, in one line (a command line prints it and exits with code 2).
public struct KeyScriptError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The one parser of key sequences (a headless `--keys`, script files): key names as
/// `Key(name:)` reads them, separated by whitespace or newlines (`1`, `r`, `Enter`, `Esc`, `Up`,
/// `Space`, `Ctrl-C`, …), `wait:MS` for time passing, and — in scripts — `#` comments to the end
/// of the line.
///
/// Stateless; safe from any thread.
public enum KeyScript {
    /// The steps of `text`.
    ///
    /// - Parameter comments: Whether a word starting with `#` begins a comment (scripts, where a
    ///   leading byte-order mark, as some editors write, is skipped too); in `--keys` a lone `#`
    ///   is the key `#`.
    /// - Throws: ``KeyScriptError`` naming the first unknown key name or bad wait.
    public static func parse(_ text: String, comments: Bool = false) throws(KeyScriptError) -> [KeyStep] {
        var steps: [KeyStep] = []
        let text = comments && text.hasPrefix("\u{FEFF}") ? text.dropFirst() : Substring(text)
        for line in text.split(
            omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        {
            for word in line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }) {
                if comments && word.hasPrefix("#") { break }
                steps.append(try step(String(word)))
            }
        }
        return steps
    }

    static func step(_ word: String) throws(KeyScriptError) -> KeyStep {
        if word.lowercased().hasPrefix("wait:") {
            let value = word.dropFirst(5)
            guard let ms = Int(value), ms >= 0, ms <= 3_600_000 else {
                throw KeyScriptError("bad wait \"\(word)\" (expected wait:MS, MS from 0 to 3600000)")
            }
            return .wait(.milliseconds(ms))
        }
        guard let key = Key(name: word) else { throw KeyScriptError("unknown key name \"\(word)\"") }
        return .key(key)
    }
}
