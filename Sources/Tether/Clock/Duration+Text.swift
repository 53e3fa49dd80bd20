extension Duration {
    /// The whole milliseconds in it, rounded down: how the lab's waits and scripts count.
    package var wholeMilliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }

    /// For a person, compact, to the hundredth of a second: `850ms`, `1.25s`, `2m05s` — leak
    /// reports, the inspector's ages and times.
    package var compactText: String {
        let milliseconds = wholeMilliseconds
        if milliseconds < 1000 { return "\(milliseconds)ms" }
        if milliseconds < 60_000 {
            let hundredths = milliseconds % 1000 / 10
            return "\(milliseconds / 1000).\(hundredths < 10 ? "0" : "")\(hundredths)s"
        }
        let seconds = milliseconds / 1000
        return "\(seconds / 60)m\(seconds % 60 < 10 ? "0" : "")\(seconds % 60)s"
    }
}
