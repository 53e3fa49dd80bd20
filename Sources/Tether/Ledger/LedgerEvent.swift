/// Something that happened to a binding or an owner, as the ledger's event log keeps it.
public struct LedgerEvent: Sendable, Equatable {
    /// What happened.
    public enum Kind: String, Sendable, Codable {
        case created, ended, cancelled
        case ownerEnded = "owner ended"
        case `deinit`
        case leak
        case releasedLate = "released late"
        case zombie
        /// A note from the application (`presented`, `rotated`, `dismissed`…).
        case note
    }

    /// When, on the ledger's clock.
    public let time: Duration
    public let kind: Kind
    /// The owner concerned, if any.
    public let owner: OwnerID?
    /// The kind of entry concerned, if the event is about an entry.
    public let entryKind: EntryKind?
    /// Where the entry (or owner) was made.
    public let site: CallSite?
    /// Free text, for notes.
    public let message: String?

    /// One line for a log view: `cancelled task ViewModel#2 Orientation.swift:40`.
    public var summary: String {
        var parts: [String] = [kind.rawValue]
        if let entryKind { parts.append(entryKind.rawValue) }
        if let owner { parts.append(owner.description) }
        if let message { parts.append(message) }
        if let site { parts.append(site.description) }
        return parts.joined(separator: " ")
    }
}
