import TerminalUI

/// One scenario of the lab: a sheet presented over home, with a view model whose bindings
/// are tied to the sheet's lifetime (bound mode) or not (leaky mode).
///
/// `make` builds the screen inside ``LabEnvironment/recording(_:)``, so everything it binds is
/// recorded in the lab's ledger.
public struct Scenario: Sendable {
    /// The screen id in dumps and the stack: `orientation`, `livedata`, `fuse`, `asyncsink`,
    /// `observed`, `lifecycle`.
    public let id: String
    /// The digit that presents it from home (1…6).
    public let number: Int
    public let title: String
    /// One line for the home list.
    public let summary: String
    /// The seed document it comes from (`seed 000` to `seed 004`), or `design` when the design
    /// alone asks for it.
    public let seed: String
    /// Builds the sheet in `mode`.
    public let make: @MainActor @Sendable (Mode, LabEnvironment) -> any Screen

    public init(
        id: String, number: Int, title: String, summary: String, seed: String,
        make: @escaping @MainActor @Sendable (Mode, LabEnvironment) -> any Screen
    ) {
        self.id = id
        self.number = number
        self.title = title
        self.summary = summary
        self.seed = seed
        self.make = make
    }
}
