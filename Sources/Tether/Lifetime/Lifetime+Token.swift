extension Lifetime {
    /// Identifies something added to a lifetime, to take it out again with ``remove(_:)``.
    public struct Token: Hashable, Sendable {
        let value: UInt64
        /// The lifetime that gave it: another lifetime's token takes nothing out of this one.
        let lifetime: ObjectIdentifier?

        /// The token of something added after the end: it ran at once, there is nothing to remove.
        static let ended = Token(value: .max, lifetime: nil)
    }
}
