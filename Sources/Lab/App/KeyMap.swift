import Foundation
import TerminalUI

/// The lab's keys as `Resources/keymap.txt` lists them: the source of the footer's hints and
/// of the help's key table. Global keys are named as `--keys` names them, and read by the same
/// parser (`Key(name:)`) when the lab registers them.
///
/// A plain value: `Sendable`.
public struct KeyMap: Sendable, Equatable {
    /// Where a key works.
    public enum Context: String, Sendable, CaseIterable {
        case global, home, sheet, inspector, filter, report, help, attach

        /// What the lab's help lists.
        public static let lab: [Context] = [.global, .home, .sheet, .inspector, .filter, .report, .help]
        /// What attach's help lists.
        public static let attachContexts: [Context] = [.attach, .filter, .report]
    }

    /// One line of the key map.
    public struct Binding: Sendable, Equatable {
        /// The key as shown (`r`, `Esc`, `1-8`).
        public var key: String
        public var context: Context
        /// The footer's word for it.
        public var hint: String
        /// The help's sentence for it.
        public var description: String
    }

    /// Why a key map could not be read.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var reason: String
        public var description: String { "keymap.txt:\(line): \(reason)" }
        public init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }
    }

    public var bindings: [Binding]

    /// Parses `key | where | hint | description` lines; `#` starts a comment line.
    public init(parsing text: String) throws(ParseError) {
        var bindings: [Binding] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: "|", maxSplits: 3, omittingEmptySubsequences: false).map(
                \.trimmingSpaces)
            guard fields.count == 4, !fields[0].isEmpty, !fields[2].isEmpty else {
                throw ParseError(line: index + 1, reason: "expected `key | where | hint | description`")
            }
            guard let context = Context(rawValue: fields[1]) else {
                throw ParseError(line: index + 1, reason: "unknown context \"\(fields[1])\"")
            }
            bindings.append(
                Binding(key: fields[0], context: context, hint: fields[2], description: fields[3]))
        }
        self.bindings = bindings
    }

    /// The key map bundled with the lab.
    public static let bundled: KeyMap = {
        do {
            return try KeyMap(parsing: LabResources.keyMapText)
        } catch {
            preconditionFailure("the bundled key map is invalid: \(error)")
        }
    }()

    /// The bindings that work in `context`, in file order.
    public func bindings(in context: Context) -> [Binding] { bindings.filter { $0.context == context } }

    /// Footer hints for `context`, in file order (the global keys' hints are the application's).
    public func hints(for context: Context) -> [KeyHint] {
        bindings(in: context).map { KeyHint($0.key, $0.hint) }
    }

    /// The help's key table for `contexts`: one aligned line per binding, grouped by context.
    public func table(for contexts: [Context] = Context.lab) -> String {
        let width = bindings.map(\.key.count).max() ?? 0
        var lines: [String] = []
        for context in contexts {
            let group = bindings(in: context)
            guard !group.isEmpty else { continue }
            lines.append("  \(context.title)")
            for b in group {
                lines.append(
                    "    " + b.key.padding(toLength: width + 2, withPad: " ", startingAt: 0) + b.description)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The help's key table for the lab.
    public var table: String { table(for: Context.lab) }

    /// The help text with the key table in place of `{{keys}}`.
    public var helpText: String {
        LabResources.helpTemplate.replacingOccurrences(of: "{{keys}}", with: table)
    }

    /// Attach's help text with its key table in place of `{{keys}}`.
    public var attachHelpText: String {
        LabResources.attachHelpTemplate.replacingOccurrences(
            of: "{{keys}}", with: table(for: Context.attachContexts))
    }
}

extension KeyMap.Context {
    fileprivate var title: String {
        switch self {
        case .global: "Everywhere"
        case .home: "Home"
        case .sheet: "On a sheet"
        case .inspector: "In the inspector (after Tab)"
        case .filter: "Typing a filter (after /)"
        case .report: "In a leak's report"
        case .help: "In this help"
        case .attach: "Watching a process"
        }
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
        return String(s)
    }
}
