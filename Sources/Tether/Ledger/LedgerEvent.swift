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
        Self.summary(
            kind: kind, entryKind: entryKind, owner: owner, message: message, site: site?.description)
    }

    /// ``summary`` from an event's parts, for a copy of an event that is not a `LedgerEvent`
    /// (one read from a served ledger), so both print alike.
    public static func summary(
        kind: Kind, entryKind: EntryKind?, owner: OwnerID?, message: String?, site: String?
    ) -> String {
        [kind.rawValue, entryKind?.rawValue, owner?.description, message, site]
            .compactMap { $0 }
            .joined(separator: " ")
    }
}
