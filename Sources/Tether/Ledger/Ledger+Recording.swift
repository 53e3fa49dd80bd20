/// What Tether's binding APIs tell the ledger: owners made, entries opened and closed, ends,
/// releases, pauses and zombie deliveries. Each is one clock read and one lock at most.
extension Ledger {
    /// Registers `object` as an owner, its lifetime a child of `parent`'s; nil when the ledger is
    /// off.
    func makeOwner(for object: AnyObject, site: CallSite, parent: Lifetime?) -> OwnerRecord? {
        guard isEnabled else { return nil }
        let now = clock.now
        let type: any AnyObject.Type = type(of: object)
        let parentRecord = parent?.ownerRecord
        let parentLink = parentRecord == nil ? parent?.linkToOwner() : nil
        let record = state.withLock {
            $0.makeOwner(type: type, site: site, at: now, parent: parentRecord, parentLink: parentLink)
        }
        changed()
        return record
    }

    /// The id of an owner this ledger registered, spelled out from its tag.
    func ownerID(of record: OwnerRecord) -> OwnerID {
        state.withLock { $0.id(of: record) }
    }

    /// Takes back an owner registered by a `track` that lost to another one on the same lifetime.
    func discardOwner(_ record: OwnerRecord) {
        state.withLock { $0.discardOwner(record) }
        changed()
    }

    /// Opens an entry; nil when the ledger is off. `owner` is a record this ledger made (its
    /// lifetime's): the ledger spells out its id.
    /// `counts` says whether the caller counts what the entry delivers (``LedgerEntry/deliveryCount``).
    func open(
        _ kind: EntryKind, owner: OwnerRecord?, site: CallSite, bound: Bool, counts: Bool = true
    ) -> LedgerEntry? {
        open(kind, owner: owner, site: site, bound: bound, counts: counts) { _, _ in () }?.entry
    }

    /// Opens a `task` entry, as ``open(_:owner:site:bound:counts:)``, and names its task: its owner's id
    /// and the site's name, both read in the same lock (the site's spelled once, by the site
    /// table). With the ledger off there is no entry, and the task is named by its site alone.
    func openTask(
        owner: OwnerRecord?, site: CallSite, bound: Bool, counts: Bool
    ) -> (entry: LedgerEntry?, name: TaskName) {
        // The parts are read under the lock, the name is spelled after it.
        let opened = open(.task, owner: owner, site: site, bound: bound, counts: counts) { state, entry in
            (owner: owner.map { state.id(of: $0) }, site: state.sites.name(of: entry.siteIndex))
        }
        guard let opened else { return (nil, TaskName(site: site)) }
        return (opened.entry, TaskName(owner: opened.read.owner, site: opened.read.site))
    }

    /// Opens an entry and reads what else its caller needs of the state in the same lock; nil
    /// when the ledger is off.
    private func open<Read>(
        _ kind: EntryKind, owner: OwnerRecord?, site: CallSite, bound: Bool, counts: Bool,
        reading read: (inout LedgerState, LedgerEntry) -> Read
    ) -> (entry: LedgerEntry, read: Read)? {
        guard isEnabled else { return nil }
        let now = clock.now
        let opened = state.withLock { state in
            let entry = state.open(
                kind, owner: owner, site: site, bound: bound, counts: counts, at: now, ledger: self)
            return (entry, read(&state, entry))
        }
        probe(opened.0)
        changed()
        return opened
    }

    /// Hands an entry just opened to the ``GrowthProbe`` of the current task, if one runs on this
    /// ledger: one load otherwise.
    private func probe(_ entry: LedgerEntry) {
        guard probes.load(ordering: .relaxed) > 0, let probe = GrowthProbe.current, probe.ledger === self
        else { return }
        probe.record(entry)
    }

    /// Removes an entry that has ended (called once per entry, by ``LedgerEntry/end(_:)``). The
    /// last entry of a leaked owner released meanwhile can resolve its leak, and so uncover the
    /// leak of a descendant: it is reported here.
    func close(_ entry: LedgerEntry, reason: EndReason, wasPaused: Bool) {
        let now = clock.now
        let reports = state.withLock { state in
            state.close(entry, reason: reason, wasPaused: wasPaused, at: now)
            return state.takeUnheard()
        }
        changed()
        tell(reports)
    }

    /// Records what a lifetime's end did, in one step: its owner's end (when `ownerEnded`: the
    /// caller set the record's `ended` flag), the entries it cancelled, in order, and — when the
    /// lifetime deinitialized — its owner's release.
    ///
    /// An owner released with nothing of it left alive is settled on the spot: no verdict waits
    /// for it, so a bind-and-end leaves the ledger as it found it. `completingEnd`: this records
    /// the rest of an end that ``beginEnd(of:)`` began.
    func lifetimeEnded(
        owner: OwnerRecord?, ownerEnded: Bool, cancelled: ClosedEntries, released: Bool,
        completingEnd: Bool = false
    ) {
        guard owner != nil || !cancelled.isEmpty else { return }
        let now = clock.now
        let (deadline, reports) = state.withLock { state -> (Duration?, [LeakReport]) in
            if completingEnd { state.verdicts.finishEnd() }
            state.lifetimeEnded(
                owner: owner, ownerEnded: ownerEnded, cancelled: cancelled, released: released, at: now)
            return (state.takeVerdictDeadline(), state.takeUnheard())
        }
        changed()
        tell(reports)
        if let deadline { scheduleVerdicts(at: deadline) }
    }

    /// Marks an owner's lifetime ended and schedules its verdict.
    func ownerEnded(_ record: OwnerRecord) {
        guard !record.ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        lifetimeEnded(owner: record, ownerEnded: true, cancelled: ClosedEntries(), released: false)
    }

    /// Records the end of an owner (the caller set its `ended` flag) whose lifetime has children,
    /// before it ends them: its verdict is queued before theirs, so a parent that leaked keeps its
    /// leaking children from being reported on their own. No verdict is judged until
    /// ``lifetimeEnded(owner:ownerEnded:cancelled:released:completingEnd:)`` records the rest of
    /// the end: on a short grace period one would otherwise judge the owner half-ended.
    func beginEnd(of record: OwnerRecord) {
        let now = clock.now
        state.withLock { state in
            state.verdicts.beginEnd()
            state.lifetimeEnded(
                owner: record, ownerEnded: true, cancelled: ClosedEntries(), released: false, at: now)
        }
        changed()
    }

    /// Counts an entry's pause (`delta` 1) or resume (-1) if `switched`, run under the lock, says
    /// the entry's status changed.
    func countPause(_ delta: Int, if switched: () -> Bool) {
        let counted = state.withLock { state in
            guard switched() else { return false }
            state.counters.paused += delta
            return true
        }
        if counted { changed() }
    }

    /// Counts a value delivered to an entry whose owner has ended.
    @usableFromInline
    func recordZombie(_ entry: LedgerEntry) {
        let now = clock.now
        state.withLock { $0.recordZombie(entry, at: now) }
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
