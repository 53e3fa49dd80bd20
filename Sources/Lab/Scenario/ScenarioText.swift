import Tether

/// What `Resources/scenarios.txt` tells users about each scenario: its title, summary, pattern,
/// where the pattern comes from, and the explanations for bound and leaky mode.
///
/// The file holds `field: value` lines in blocks, each started by `id:`, in home's order (so a
/// block's position is its digit); `#` starts a comment line. A plain value: `Sendable`.
struct ScenarioText: Sendable, Equatable {
    /// The fields every block must have, beside `id`.
    static let fields = ["title", "summary", "pattern", "origin", "bound", "leaky"]

    let id: String
    /// The block's position in the file, from 1: the digit that presents the scenario.
    let number: Int
    private let values: [String: String]

    /// The value of `field` (one of ``fields``).
    subscript(field: String) -> String { values[field] ?? "" }

    /// The blocks of `text`, by id.
    /// - Throws: the first line that is not `field: value`, or a block that lacks a field.
    static func parse(_ text: String) throws(KeyMap.ParseError) -> [String: ScenarioText] {
        var blocks: [(id: String, values: [String: String], line: Int)] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let colon = line.firstIndex(of: ":") else {
                throw KeyMap.ParseError(line: index + 1, reason: "expected `field: value`")
            }
            let field = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingSpaces
            if field == "id" {
                blocks.append((value, [:], index + 1))
            } else if ScenarioText.fields.contains(field), !blocks.isEmpty {
                blocks[blocks.count - 1].values[field] = value
            } else {
                throw KeyMap.ParseError(line: index + 1, reason: "unexpected field \"\(field)\"")
            }
        }
        var texts: [String: ScenarioText] = [:]
        for (offset, block) in blocks.enumerated() {
            if let missing = ScenarioText.fields.first(where: { block.values[$0] == nil }) {
                throw KeyMap.ParseError(line: block.line, reason: "\(block.id) has no \(missing)")
            }
            texts[block.id] = ScenarioText(id: block.id, number: offset + 1, values: block.values)
        }
        return texts
    }

    /// The bundled scenarios' texts.
    static let bundled: [String: ScenarioText] = {
        do {
            return try parse(LabResources.scenariosText)
        } catch {
            preconditionFailure("the bundled scenarios.txt is invalid: \(error)")
        }
    }()
}

extension Scenario {
    /// The scenario `id` as `Resources/scenarios.txt` describes it; `make` makes the view model
    /// its sheet shows.
    init(
        _ id: String,
        make:
            @escaping @MainActor @Sendable (
                _ mode: Mode, _ environment: LabEnvironment, _ lifecycle: Lifecycle
            ) ->
            any ScenarioContent
    ) {
        guard let text = ScenarioText.bundled[id] else { preconditionFailure("scenarios.txt has no \(id)") }
        self.init(
            id: id, number: text.number, title: text["title"], summary: text["summary"],
            pattern: text["pattern"],
            origin: text["origin"], bound: text["bound"], leaky: text["leaky"], make: make)
    }

    /// The scenario `id`, whose sheet shows a `model` bound to the sheet's lifetime.
    init<Model: ScenarioModel>(_ id: String, model: Model.Type) {
        self.init(id) { Model(mode: $0, environment: $1, parent: $2.lifetime) }
    }
}
