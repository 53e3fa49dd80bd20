/// The simulated device orientation every scenario listens to.
///
/// `r` rotates it: portrait → landscapeLeft → portraitUpsideDown → landscapeRight → portrait.
public enum Orientation: String, Sendable, CaseIterable, Codable {
    case portrait, landscapeLeft, portraitUpsideDown, landscapeRight

    /// The orientation after one rotation.
    public var next: Orientation {
        switch self {
        case .portrait: .landscapeLeft
        case .landscapeLeft: .portraitUpsideDown
        case .portraitUpsideDown: .landscapeRight
        case .landscapeRight: .portrait
        }
    }

    /// Whether the orientation is the upright portrait (the article's `isPortrait`).
    public var isPortrait: Bool { self == .portrait }
}

/// Whether the next sheet is presented the Tether way or the naive way its source warns about.
public enum Mode: String, Sendable, Codable {
    /// Bindings tied to the sheet's lifetime: counters return to baseline on dismissal.
    case bound
    /// The naive twin: something outlives the sheet, and the ledger shows it.
    case leaky

    /// The other mode.
    public var toggled: Mode { self == .bound ? .leaky : .bound }
}
