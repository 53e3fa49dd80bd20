/// The ledger's event log: a ring of at most `capacity` events, oldest overwritten first.
struct EventLog {
    let capacity: Int
    private var events: [LoggedEvent] = []
    private var oldest = 0

    /// A log of `capacity` events; none when it is 0 or less.
    init(capacity: Int) { self.capacity = max(0, capacity) }

    /// Adds an event, overwriting the oldest once `capacity` are kept.
    mutating func append(
        time: Duration, kind: LedgerEvent.Kind, subject: LoggedEvent.Subject, entryKind: EntryKind? = nil,
        site: SiteIndex = .none
    ) {
        guard capacity > 0 else { return }
        let event = LoggedEvent(time: time, subject: subject, site: site, kind: kind, entryKind: entryKind)
        if events.count < capacity {
            events.append(event)
        } else {
            events[oldest] = event
            oldest = oldest + 1 == events.count ? 0 : oldest + 1
        }
    }

    /// The log, oldest first, with its call sites looked up in `sites` and its owners in `names`.
    func ordered(sites: SiteTable, names: OwnerNames) -> [LedgerEvent] {
        (events[oldest...] + events[..<oldest]).map { $0.event(sites: sites, names: names) }
    }
}

/// An event as the log keeps it, in 40 bytes and with no reference but a note's. The owner is
/// kept as its ``OwnerTag`` and the call site as its index in the ledger's ``SiteTable``; both are
/// looked up when a snapshot is taken.
struct LoggedEvent {
    /// An event's text and the owner it names: an application note, or the error an entry
    /// ended with.
    final class Note: Sendable {
        let owner: OwnerID?
        let message: String

        init(owner: OwnerID?, message: String) {
            self.owner = owner
            self.message = message
        }
    }

    /// Whom the event concerns: nobody, an owner, or an owner and a text (``Note``).
    enum Subject {
        case none
        case owner(OwnerTag)
        case note(Note)

        static func owning(_ record: OwnerRecord?) -> Subject { record.map { .owner($0.tag) } ?? .none }
    }

    let time: Duration
    let subject: Subject
    let site: SiteIndex
    let kind: LedgerEvent.Kind
    let entryKind: EntryKind?

    func event(sites: SiteTable, names: OwnerNames) -> LedgerEvent {
        let (owner, message): (OwnerID?, String?) =
            switch subject {
            case .none: (nil, nil)
            case .owner(let tag): (names.id(of: tag), nil)
            case .note(let note): (note.owner, note.message)
            }
        return LedgerEvent(
            time: time, kind: kind, owner: owner, entryKind: entryKind,
            site: site == .none ? nil : sites[site],
            message: message)
    }
}
