/// What Tether's binding APIs tell the ledger: owners made, entries opened and closed, ends,
/// releases, pauses and zombie deliveries. Each is one clock read and one lock at most.
extension Ledger {
    /// Registers `object` as an owner, its lifetime a child of `parent`'s; nil when the ledger is
    /// off.
    func makeOwner(for object: AnyObject, site: CallSite, parent: Lifetime?) -> OwnerRecord? {
        guard isEnabled else { return nil }
        let now = clock.now
        let type: any AnyObject.Type = type(of: object)
        let key = takeKey()
        let parentRecord = parent?.ownerRecord
        let record = state.withLock { state -> OwnerRecord in
            let record = OwnerRecord(
                key: key, id: state.nextOwnerID(for: type), siteIndex: state.sites.index(of: site),
                created: now, parent: parentRecord,
                parentLink: parentRecord == nil ? parent?.linkToOwner() : nil)
            state.owners.list(record)
            state.counters.owners += 1
            return record
        }
        changed()
        return record
    }

    /// Takes back an owner registered by a `track` that lost to another one on the same lifetime.
    func discardOwner(_ record: OwnerRecord) {
        state.withLock { state in
            guard record.isListed else { return }
            state.owners.unlist(record)
            state.counters.owners -= 1
        }
        changed()
    }

    /// Opens an entry; nil when the ledger is off.
    func open(_ kind: EntryKind, owner: OwnerRecord?, site: CallSite, bound: Bool) -> LedgerEntry? {
        guard isEnabled else { return nil }
        let now = clock.now
        let entry = LedgerEntry(
            key: takeKey(), kind: kind, owner: owner, created: now, bound: bound, ledger: self)
        let capacity = eventCapacity
        state.withLock { state in
            state.entries.list(entry)
            state.counters[kind] += 1
            if let owner, owner.isListed { owner.countEntries(by: 1) }
            entry.siteIndex = state.sites.index(of: site)
            state.log.append(
                time: now, kind: .created, subject: .owning(owner), entryKind: kind, site: entry.siteIndex,
                capacity: capacity)
        }
        changed()
        return entry
    }

    /// Removes an entry that has ended (called once per entry, by ``LedgerEntry/end(_:)``).
    func close(_ entry: LedgerEntry, reason: EndReason, wasPaused: Bool) {
        let now = clock.now
        let capacity = eventCapacity
        state.withLock { $0.close(entry, reason: reason, wasPaused: wasPaused, at: now, capacity: capacity) }
        changed()
    }

    /// Records what a lifetime's end did, in one step: its owner's end (when `ownerEnded`: the
    /// caller set the record's `ended` flag), the entries it cancelled, in order, and — when the
    /// lifetime deinitialized — its owner's release.
    ///
    /// An owner released with nothing of it left alive is settled on the spot: no verdict waits
    /// for it, so a bind-and-end leaves the ledger as it found it.
    func lifetimeEnded(owner: OwnerRecord?, ownerEnded: Bool, cancelled: ClosedEntries, released: Bool) {
        guard owner != nil || !cancelled.isEmpty else { return }
        let now = clock.now
        let capacity = eventCapacity
        let deadline = state.withLock { state -> Duration? in
            if ownerEnded, let owner {
                state.ownerEnded(owner, at: now, verdictAt: now + gracePeriod, capacity: capacity)
            }
            cancelled.forEach { entry, wasPaused in
                state.close(entry, reason: .cancelled, wasPaused: wasPaused, at: now, capacity: capacity)
            }
            if released, let owner { state.ownerReleased(owner, at: now, capacity: capacity) }
            return state.takeVerdictDeadline()
        }
        changed()
        if let deadline { scheduleVerdicts(at: deadline) }
    }

    /// Marks an owner's lifetime ended and schedules its verdict; `alreadyMarked` when the caller
    /// has set the record's `ended` flag.
    func ownerEnded(_ record: OwnerRecord, alreadyMarked: Bool = false) {
        guard alreadyMarked || !record.ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        lifetimeEnded(owner: record, ownerEnded: true, cancelled: ClosedEntries(), released: false)
    }

    /// Counts an entry's pause or resume.
    func paused(_ delta: Int) {
        state.withLock { $0.counters.paused += delta }
        changed()
    }

    /// Counts a value delivered to an entry whose owner has ended.
    func recordZombie(_ entry: LedgerEntry) {
        let now = clock.now
        let capacity = eventCapacity
        state.withLock { state in
            state.counters.zombies += 1
            entry.countDeliveryAfterEnd()
            state.log.append(
                time: now, kind: .zombie, subject: .owning(entry.owner), entryKind: entry.kind,
                site: entry.siteIndex, capacity: capacity)
        }
        changed()
    }
}

/// The entries a lifetime's end closed, in order; the first inline (most lifetimes hold one), so
/// recording them allocates nothing.
struct ClosedEntries {
    private var first: (entry: LedgerEntry, wasPaused: Bool)?
    private var rest: [(entry: LedgerEntry, wasPaused: Bool)] = []

    var isEmpty: Bool { first == nil }

    mutating func append(_ entry: LedgerEntry, wasPaused: Bool) {
        if first == nil { first = (entry, wasPaused) } else { rest.append((entry, wasPaused)) }
    }

    func forEach(_ body: (LedgerEntry, Bool) -> Void) {
        guard let first else { return }
        body(first.entry, first.wasPaused)
        for (entry, wasPaused) in rest { body(entry, wasPaused) }
    }
}
