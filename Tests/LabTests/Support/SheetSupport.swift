import Foundation
import TerminalUI
import Testing

@testable import Lab

extension HeadlessLab {
    /// The topmost scenario sheet on the stack (a cover or help may be above it).
    var topSheet: ScenarioSheet? {
        lab.application.stack.screens.last { $0 is ScenarioSheet } as? ScenarioSheet
    }

    /// The view model of the topmost scenario sheet, as `type`: what logic tests assert on,
    /// instead of the words a screen shows. Records an issue and throws when there is none.
    func viewModel<Model>(as type: Model.Type, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> Model
    {
        try #require(
            topSheet?.content as? Model, "a \(Model.self) sheet on the stack", sourceLocation: sourceLocation)
    }

    /// The screen on top of the stack, as `type`. Records an issue and throws when it is another.
    func topScreen<S>(as type: S.Type, sourceLocation: SourceLocation = #_sourceLocation) throws -> S {
        try #require(
            lab.application.stack.top as? S, "\(S.self) on top of the stack", sourceLocation: sourceLocation)
    }
}

/// A scenario sheet as the user reads it, drawn alone at a fixed size: the title in its top
/// edge, and the lines below its head (the pattern and the explanation, which come from
/// `scenarios.txt`): the view model's status lines, a blank row, then its body.
struct SheetText: Equatable, CustomStringConvertible {
    var title: String
    var lines: [String]

    /// Line `index` below the head, or nil past the end.
    func line(_ index: Int) -> String? { lines.indices.contains(index) ? lines[index] : nil }

    var description: String { ([title] + lines).map { "\"\($0)\"" }.joined(separator: "\n") }
}

extension ScenarioSheet {
    /// The sheet drawn into a buffer of `size` in the standard theme, as ``SheetText``. `size`
    /// must leave room for the head, so that what follows it is where it always is.
    func text(size: Size = Size(width: 100, height: 32), sourceLocation: SourceLocation = #_sourceLocation)
        throws -> SheetText
    {
        var buffer = Buffer(size: size)
        render(into: &buffer, area: buffer.area, theme: .standard)
        let top = buffer.text(row: 0)
        let title = String(top.drop { $0 != " " }.reversed().drop { $0 != " " }.reversed())
            .trimmingCharacters(in: .whitespaces)
        let inner = buffer.linesInsideBox
        try #require(
            inner.first?.hasPrefix(scenario.pattern) == true, "the head is drawn at \(size)",
            sourceLocation: sourceLocation)
        let head = try #require(inner.firstIndex(of: ""), sourceLocation: sourceLocation)
        var lines = Array(inner[(head + 1)...])
        while lines.last == "" { lines.removeLast() }
        return SheetText(title: title, lines: lines)
    }
}

extension HeadlessLab {
    /// The topmost scenario sheet as the user reads it (see ``ScenarioSheet/text(size:sourceLocation:)``).
    func sheetText(
        size: Size = Size(width: 100, height: 32), sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> SheetText {
        let sheet = try #require(topSheet, "a scenario sheet on the stack", sourceLocation: sourceLocation)
        return try sheet.text(size: size, sourceLocation: sourceLocation)
    }
}

extension Buffer {
    /// The rows inside a bordered box that fills the buffer, past the border and its one column
    /// of padding on each side, without trailing spaces.
    var linesInsideBox: [String] {
        textLines.dropFirst().dropLast().map { row in
            String(String(row.dropFirst(2).dropLast(2)).reversed().drop { $0 == " " }.reversed())
        }
    }
}
