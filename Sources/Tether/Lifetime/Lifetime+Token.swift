extension Lifetime {
    /// Identifies something added to a lifetime, to take it out again with ``remove(_:)``.
    public struct Token: Hashable, Sendable {
        let value: UInt64
        /// The serial of the lifetime that gave it: another lifetime's token takes nothing out of
        /// this one.
        let lifetime: UInt64

        /// The token of something added after the end: it ran at once, there is nothing to remove.
        /// No lifetime has serial 0.
        static let ended = Token(value: .max, lifetime: 0)
    }
}
