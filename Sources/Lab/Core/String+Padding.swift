import TerminalUI

extension String {
    /// Padded with spaces on the right to `width` columns (never cut).
    func padded(toWidth width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - CharacterWidth.of(self)))
    }

    /// Padded with spaces on the left to `width` columns (never cut).
    func leftPadded(toWidth width: Int) -> String {
        String(repeating: " ", count: max(0, width - CharacterWidth.of(self))) + self
    }
}
