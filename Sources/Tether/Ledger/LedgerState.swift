/// What a ``Ledger`` knows, behind its lock: the owners it follows with their live entries, the
/// entries of nobody, the verdicts to run, the event log and the handlers. Every method runs under
/// the ledger's lock and calls nothing outside it.
struct LedgerState {
    /// One followed owner: its record, its phase and the entries attributed to it, alive.
    struct OwnerBook {
        let record: OwnerRecord
        var state = OwnerState()
        var entries = EntryBooks()
        /// Its live entries counted by call site and kind, for growth.
        var sites = SiteCounts()
        /// When its lifetime ended, on the ledger's clock.
        var endedAt: Duration?

        init(_ record: OwnerRecord) { self.record = record }
    }

    /// The owners the ledger follows: alive, or ended and not yet settled.
    var owners = OwnerTable()
    /// Live entries with no owner followed (none, or one the ledger has forgotten), by key.
    var unowned: [UInt64: EntryBook] = [:]
    /// The leaks reported, kept while their owners are followed, and whom they cover.
    var leaks = LeakBook()
    var counters = LedgerSnapshot.Counters()
    var log: EventLog
    var sites = SiteTable()
    let gracePeriod: Duration
    /// The verdicts owed, in order of deadline.
    var verdicts = VerdictQueue()
    var changeHandlers: [UInt64: @Sendable () -> Void] = [:]
    var leakWatchers: [UInt64: LeakWatcher] = [:]
    /// Growth found at checkpoints (``Ledger/checkpoint(scope:)``).
    var growth = LedgerGrowth()
    var ownerNames = OwnerNames()
    /// One sequence for owners, entries, handlers and leak reports: keys are unique and follow the
    /// order things were made in.
    private var nextKey: UInt64 = 1

    init(gracePeriod: Duration, eventCapacity: Int) {
        self.gracePeriod = gracePeriod
        log = EventLog(capacity: eventCapacity)
    }

    /// The next key of the sequence.
    mutating func takeKey() -> UInt64 {
        defer { nextKey += 1 }
        return nextKey
    }

    /// The id of an owner this ledger follows or followed, spelled out from its tag.
    func id(of record: OwnerRecord) -> OwnerID { ownerNames.id(of: record.tag) }

    /// Keeps `value` (a handler) in `table` under a new key, and returns the key.
    mutating func keep<Value>(_ value: Value, in table: WritableKeyPath<Self, [UInt64: Value]>) -> UInt64 {
        let key = takeKey()
        self[keyPath: table][key] = value
        return key
    }

    // MARK: - Owners

    /// Follows a new owner of `type`, tracked at `site`.
    mutating func makeOwner(
        type: any AnyObject.Type, site: CallSite, at now: Duration, parent: OwnerRecord?,
        parentLink: OwnerLink?
    ) -> OwnerRecord {
        let key = takeKey()
        let tag = ownerNames.nextTag(for: type)
        let siteIndex = sites.index(of: site)
        let record = owners.add { slot in
            OwnerRecord(
                key: key, slot: slot, tag: tag, siteIndex: siteIndex, created: now, parent: parent,
                parentLink: parentLink)
        }
        counters.owners += 1
        return record
    }

    /// Drops an owner that lost the race to track a lifetime.
    mutating func discardOwner(_ record: OwnerRecord) {
        guard let slot = owners.slot(of: record) else { return }
        let book = owners.remove(at: slot)
        if !book.state.released { counters.owners -= 1 }
        for item in book.entries.values where unowned[item.entry.key] == nil {
            unowned[item.entry.key] = item
        }
        ownerNames.giveBack(record.tag)
    }

    // MARK: - Entries

    mutating func open(
        _ kind: EntryKind, owner: OwnerRecord?, site: CallSite, bound: Bool, counts: Bool, at now: Duration,
        ledger: Ledger
    ) -> LedgerEntry {
        let key = takeKey()
        let entry = LedgerEntry(
            key: key, kind: kind, owner: owner, site: sites.index(of: site), created: now, bound: bound,
            countsDeliveries: counts, ledger: ledger)
        let book = EntryBook(entry: entry)
        if let owner, let index = owners.slot(of: owner) {
            owners.change(slot: index) { $0.entries.insert(book) }
            countEntry(kind, at: entry.siteIndex, by: 1, ownerAt: index)
            apply(.entryOpened, to: owner.handle, at: now)
        } else {
            unowned[key] = book
        }
        counters[kind] += 1
        log.append(time: now, kind: .created, subject: .owning(owner), entryKind: kind, site: entry.siteIndex)
        return entry
    }

    /// Closes an entry, and logs it, before its owner hears of it: the owner may settle then.
    mutating func close(_ entry: LedgerEntry, reason: EndReason, wasPaused: Bool, at now: Duration) {
        let owner = entry.owner?.handle
        let slot = owner.flatMap { owners.slot(of: $0) }
        let book = slot.flatMap { owners.change(slot: $0) { $0.entries.remove(key: entry.key) } }
        guard book != nil || unowned.removeValue(forKey: entry.key) != nil else { return }
        if let book, let owner, leaks.leak(of: owner) != nil {
            leaks.entryEnded(entry.key, of: owner, as: survivor(book))
        }
        counters[entry.kind] -= 1
        if wasPaused { counters.paused -= 1 }
        log.append(
            time: now, kind: reason == .cancelled ? .cancelled : .ended, subject: endSubject(entry, reason),
            entryKind: entry.kind, site: entry.siteIndex)
        guard book != nil, let slot, let owner else { return }
        countEntry(entry.kind, at: entry.siteIndex, by: -1, ownerAt: slot)
        apply(.entryClosed, to: owner, at: now)
    }

    /// Whom an entry's end concerns: its owner, and for a failure the error, as the event's text.
    private func endSubject(_ entry: LedgerEntry, _ reason: EndReason) -> LoggedEvent.Subject {
        guard case .failed(let error) = reason else { return .owning(entry.owner) }
        return .note(LoggedEvent.Note(owner: entry.owner.map(id(of:)), message: "threw \(error)"))
    }

    /// Counts a value delivered to an entry whose owner has ended.
    mutating func recordZombie(_ entry: LedgerEntry, at now: Duration) {
        counters.zombies += 1
        let counted = entry.owner.flatMap {
            changeOwner($0.handle) { $0.entries.countDeliveryAfterEnd(key: entry.key) }
        }
        if counted != true { unowned[entry.key]?.deliveriesAfterEnd += 1 }
        log.append(
            time: now, kind: .zombie, subject: .owning(entry.owner), entryKind: entry.kind,
            site: entry.siteIndex)
    }

    // MARK: - Verdicts

    /// The deadline to arm the verdict timer for, if one is needed and none is armed; marks it
    /// armed.
    mutating func takeVerdictDeadline() -> Duration? {
        let owners = owners
        return verdicts.armTimer { owners[$0]?.state.awaitsVerdict == true }
    }

    /// When the next verdict of an owner that awaits one falls due.
    var nextVerdictDeadline: Duration? {
        verdicts.nextDeadline { owners[$0]?.state.awaitsVerdict == true }
    }

    /// Judges up to `limit` owners whose grace period ended by `now`, in the order they ended (a
    /// parent before its children). Nil when none was due.
    mutating func judgeDueOwners(now: Duration, atMost limit: Int) -> Int? {
        guard verdicts.hasDue(at: now) else { return nil }
        var judged = 0
        while judged < limit, let owner = verdicts.takeDue(at: now) {
            guard let record = owners[owner]?.record else { continue }
            apply(.judged(coveredBy: coveringAncestor(of: record)), to: owner, at: now)
            judged += 1
        }
        return judged
    }

    /// The leaks reported since the last call, for the leak handlers.
    mutating func takeUnheard() -> [LeakReport] { leaks.takeUnheard() }

    /// Records a leak found now: its report names every entry of the owner still alive.
    mutating func recordLeak(of owner: OwnerHandle, at now: Duration) {
        guard let book = owners[owner] else { return }
        let record = book.record
        let alive = book.entries.values.sorted { $0.entry.key < $1.entry.key }
        let report = LeakReport(
            owner: id(of: record), ownerSite: sites[record.siteIndex], endedAt: book.endedAt ?? now,
            foundAt: now, survivors: alive.map(survivor))
        leaks.report(report, of: owner, survivors: alive.map(\.entry.key), order: takeKey())
        let culprit = report.culprit
        log.append(
            time: now, kind: .leak, subject: .owner(record.tag), entryKind: culprit?.kind,
            site: culprit.map { sites.index(of: $0.site) } ?? record.siteIndex)
    }

    /// A leak report's line for a live entry, with what it has delivered so far.
    func survivor(_ item: EntryBook) -> LeakReport.Survivor {
        // Read once: the count moves without the lock, and both figures are counted or neither.
        let delivered = item.entry.deliveryCount
        return LeakReport.Survivor(
            kind: item.entry.kind, site: sites[item.entry.siteIndex], deliveries: delivered,
            deliveriesAfterEnd: delivered.map { _ in item.deliveriesAfterEnd }, bound: item.entry.bound)
    }

    /// The nearest ancestor of `record` whose report covers `record`'s (``OwnerState/covers``): one
    /// that leaks, or one that ended and awaits its verdict — a child ended just before its parent
    /// is judged first, and must not be reported on its own if the parent leaks.
    func coveringAncestor(of record: OwnerRecord) -> UInt64? {
        var parent = record.parent
        while let current = parent {
            if owners[current.handle]?.state.covers == true { return current.key }
            parent = current.parent
        }
        return nil
    }
}
