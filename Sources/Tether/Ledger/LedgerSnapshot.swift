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

    public init(
        time: Duration, kind: Kind, owner: OwnerID? = nil, entryKind: EntryKind? = nil, site: CallSite? = nil,
        message: String? = nil
    ) {
        self.time = time
        self.kind = kind
        self.owner = owner
        self.entryKind = entryKind
        self.site = site
        self.message = message
    }

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

/// A consistent picture of a ledger at one instant: what a UI renders and a test asserts.
public struct LedgerSnapshot: Sendable {
    /// Live counts.
    public struct Counters: Sendable, Equatable, Codable {
        /// Owners whose object is still alive.
        public var owners = 0
        public var subscriptions = 0
        public var tasks = 0
        public var observers = 0
        public var bindings = 0
        /// Entries currently paused by their lifecycle (included in the counts above).
        public var paused = 0
        /// Owners found alive (or with bound entries alive) after their end plus the grace period.
        public var leaks = 0
        /// Owners on their way out: their lifetime has ended, but the object — or something it
        /// owned — is not gone yet, and no leak is reported for them. The owners a snapshot
        /// shows as ``LedgerSnapshot/Owner/State-swift.enum/ended``. In a program that lets go
        /// of what it ends, each is gone within moments; one that stays until the grace period
        /// passes is a leak.
        public var ending = 0
        /// Values delivered to entries whose owner had ended, since the ledger was made.
        public var zombies = 0

        public init() {}

        /// Every live entry, of all kinds.
        public var entries: Int { subscriptions + tasks + observers + bindings }

        /// The count for one kind of entry.
        public subscript(kind: EntryKind) -> Int {
            get {
                switch kind {
                case .subscription: subscriptions
                case .task: tasks
                case .observer: observers
                case .binding: bindings
                }
            }
            set {
                switch kind {
                case .subscription: subscriptions = newValue
                case .task: tasks = newValue
                case .observer: observers = newValue
                case .binding: bindings = newValue
                }
            }
        }
    }

    /// One live entry.
    public struct Entry: Sendable, Equatable {
        public enum State: String, Sendable { case active, paused }
        public let kind: EntryKind
        public let owner: OwnerID?
        public let site: CallSite
        public let age: Duration
        public let deliveries: Int
        public let state: State
        /// Whether the owner's lifetime holds it (it ends with the owner) or it is only attributed.
        public let bound: Bool
    }

    /// One owner with its live entries.
    public struct Owner: Sendable, Equatable {
        public enum State: String, Sendable { case alive, ended, leaked }
        public let id: OwnerID
        public let site: CallSite
        public let state: State
        public let age: Duration
        public let entries: [Entry]
    }

    /// A leak: an owner that outlived its end, named by the binding that kept it (or itself).
    public struct Leak: Sendable, Equatable, Hashable {
        public let owner: OwnerID
        /// The kind of the first binding still alive, or nil when only the owner object survives.
        public let kind: EntryKind?
        /// That binding's call site, or where the owner was tracked.
        public let site: CallSite
        /// When the owner's lifetime ended.
        public let endedAt: Duration
        /// All the bindings still alive at the verdict, oldest first.
        public let survivors: [CallSite]

        /// `kind` as text: the entry kind, or `owner`.
        public var kindName: String { kind?.rawValue ?? "owner" }
    }

    /// When the snapshot was taken, on the ledger's clock.
    public let time: Duration
    public let counters: Counters
    /// Owners that are alive or awaiting a verdict, oldest first.
    public let owners: [Owner]
    /// Live entries with no owner, oldest first.
    public let unowned: [Entry]
    /// Current leaks, in the order they were found.
    public let leaks: [Leak]
    /// The event log, oldest first.
    public let events: [LedgerEvent]
}
