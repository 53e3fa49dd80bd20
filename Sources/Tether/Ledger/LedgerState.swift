import DequeModule

/// What a ``Ledger`` knows, behind its lock: open entries, followed owners, leaks, the verdicts
/// to run, the event log and the handlers. Every method runs under the ledger's lock and calls
/// nothing outside it.
struct LedgerState {
    /// Open entries, in no order (snapshots sort them).
    var entries: [LedgerEntry] = []
    /// The owners the ledger follows, in no order: alive, or ended and not yet settled.
    var owners: [OwnerRecord] = []
    /// Leaks found, by owner key; reported ones are also in `leakOrder`.
    var leaks: [UInt64: LedgerSnapshot.Leak] = [:]
    var leakOrder: [UInt64] = []
    var counters = LedgerSnapshot.Counters()
    var log = EventLog()
    var sites = SiteTable()
    /// Verdicts to run, in order of deadline. Owners settled meanwhile are skipped.
    var pending = Deque<(deadline: Duration, owner: OwnerRecord)>()
    var verdictScheduled = false
    var changeHandlers: [UInt64: @Sendable () -> Void] = [:]
    var leakWatchers: [UInt64: LeakWatcher] = [:]
    /// Growth found at checkpoints (``Ledger/checkpoint()``); untouched by recording.
    var growth = LedgerGrowth()
    /// Per owner type: its name (made once) and how many owners of it were made.
    private var typeSerials: [ObjectIdentifier: (name: String, count: Int)] = [:]

    /// The id of the next owner of `type`: `ViewModel#3`.
    mutating func nextOwnerID(for type: any AnyObject.Type) -> OwnerID {
        let key = ObjectIdentifier(type)
        if let index = typeSerials.index(forKey: key) {
            typeSerials.values[index].count += 1
            let serial = typeSerials.values[index]
            return OwnerID(typeName: serial.name, serial: serial.count)
        }
        let name = String(describing: type)
        typeSerials[key] = (name, 1)
        return OwnerID(typeName: name, serial: 1)
    }

    // MARK: - Entries and owners

    mutating func close(
        _ entry: LedgerEntry, reason: EndReason, wasPaused: Bool, at now: Duration, capacity: Int
    ) {
        guard entry.isListed else { return }
        entries.unlist(entry)
        counters[entry.kind] -= 1
        if let owner = entry.owner, owner.isListed { owner.countEntries(by: -1) }
        if wasPaused { counters.paused -= 1 }
        log.append(
            time: now, kind: reason == .cancelled ? .cancelled : .ended, subject: .owning(entry.owner),
            entryKind: entry.kind, site: entry.siteIndex, capacity: capacity)
        guard let owner = entry.owner, owner.isListed, owner.released, owner.live == 0 else { return }
        // The last survivor of a released owner is gone: a leak resolved itself ("released
        // late"); an owner on its way out is gone for good, and any verdict could only acquit it.
        if hasLeak(owner) {
            resolveLeak(of: owner, at: now, capacity: capacity)
        } else if owner.hasEnded {
            forget(owner)
        }
    }

    /// Queues the verdict of an owner whose lifetime ended.
    mutating func ownerEnded(
        _ owner: OwnerRecord, at now: Duration, verdictAt deadline: Duration, capacity: Int
    ) {
        guard owner.isListed else { return }
        owner.verdictPending = true
        owner.countedEnding = true
        counters.ending += 1
        pending.append((deadline, owner))
        log.append(
            time: now, kind: .ownerEnded, subject: .owning(owner), site: owner.siteIndex, capacity: capacity)
    }

    mutating func ownerReleased(_ owner: OwnerRecord, at now: Duration, capacity: Int) {
        guard owner.isListed, !owner.released else { return }
        owner.released = true
        counters.owners -= 1
        log.append(
            time: now, kind: .deinit, subject: .owning(owner), site: owner.siteIndex, capacity: capacity)
        if hasLeak(owner) {
            // Released late — unless something it owned still runs, which keeps the leak.
            if owner.live == 0 { resolveLeak(of: owner, at: now, capacity: capacity) }
        } else if owner.hasEnded && (owner.live == 0 || !owner.verdictPending) {
            // Nothing of it outlived it (its verdict could only acquit it), or it was judged already.
            forget(owner)
        }
    }

    /// Drops everything kept about an owner.
    mutating func forget(_ owner: OwnerRecord) {
        owners.unlist(owner)
        owner.verdictPending = false
        stopCountingEnding(owner)
        if !leaks.isEmpty { leaks[owner.key] = nil }
    }

    /// Takes an owner out of ``LedgerSnapshot/Counters/ending``: it is forgotten, or reported.
    mutating func stopCountingEnding(_ owner: OwnerRecord) {
        guard owner.countedEnding else { return }
        owner.countedEnding = false
        counters.ending -= 1
    }

    // MARK: - Verdicts

    /// The deadline to arm the verdict timer for, if one is needed and none is armed; marks it
    /// armed. Drops settled owners from the front first, so no timer is armed for them.
    mutating func takeVerdictDeadline() -> Duration? {
        while let first = pending.first, !first.owner.isListed { pending.removeFirst() }
        guard !verdictScheduled, let first = pending.first else { return nil }
        verdictScheduled = true
        return first.deadline
    }

    /// Up to `limit` verdicts due by `now`, of owners still followed; nil when none is due.
    mutating func takeDueVerdicts(now: Duration, atMost limit: Int) -> [(
        deadline: Duration, owner: OwnerRecord
    )]? {
        guard let first = pending.first, first.deadline <= now else { return nil }
        var due: [(deadline: Duration, owner: OwnerRecord)] = []
        while due.count < limit, let first = pending.first, first.deadline <= now {
            pending.removeFirst()
            if first.owner.isListed { due.append(first) }
        }
        return due
    }

    /// Judges an owner whose grace period has passed: forgets it if it and all it owned are
    /// gone, else records its leak and returns it.
    mutating func judge(_ owner: OwnerRecord, endedAt: Duration, now: Duration) -> OwnerRecord? {
        guard owner.isListed else { return nil }
        owner.verdictPending = false
        if owner.released && owner.live == 0 {
            forget(owner)
            return nil
        }
        // A leak: the owner object, or something it owned — bound or only attributed, like a
        // task that was never stored — outlived its end. Only now are its entries looked through.
        let survivors = entries.filter { $0.owner === owner }.sorted { $0.key < $1.key }
        let report = LeakReport(
            owner: owner.id, ownerSite: sites[owner.siteIndex], endedAt: endedAt, foundAt: now,
            survivors: survivors.map { entry in
                LeakReport.Survivor(
                    kind: entry.kind, site: sites[entry.siteIndex],
                    deliveries: entry.deliveries.load(ordering: .relaxed),
                    deliveriesAfterEnd: entry.deliveriesAfterEnd, bound: entry.bound)
            })
        leaks[owner.key] = LedgerSnapshot.Leak(report)
        return owner
    }

    /// Reports a leak found by ``judge(_:endedAt:now:)``: counted, logged, listed.
    mutating func report(_ leak: LedgerSnapshot.Leak, of owner: OwnerRecord, at now: Duration, capacity: Int)
    {
        leakOrder.append(owner.key)
        counters.leaks += 1
        stopCountingEnding(owner)
        let culprit = leak.report.culprit
        log.append(
            time: now, kind: .leak, subject: .owning(owner), entryKind: culprit?.kind,
            site: culprit.map { sites.index(of: $0.site) } ?? owner.siteIndex, capacity: capacity)
    }

    /// Ends a leak whose owner and survivors are all gone: "released late".
    mutating func resolveLeak(of owner: OwnerRecord, at now: Duration, capacity: Int) {
        counters.leaks -= 1
        leakOrder.removeAll { $0 == owner.key }
        leaks[owner.key] = nil
        log.append(
            time: now, kind: .releasedLate, subject: .owning(owner), site: owner.siteIndex, capacity: capacity
        )
        forget(owner)
    }

    func hasLeak(_ owner: OwnerRecord) -> Bool { !leaks.isEmpty && leaks[owner.key] != nil }

    func hasLeakedAncestor(_ owner: OwnerRecord) -> Bool {
        var parent = owner.parent
        while let current = parent {
            if leaks[current.key] != nil { return true }
            parent = current.parent
        }
        return false
    }
}

/// An object the ledger keeps in an unordered array that knows its position in it: found and
/// removed in O(1) (swapped with the last) without hashing.
protocol LedgerListed: AnyObject {
    /// Its index in the array, -1 when it is not in it. Changed only under the ledger's lock.
    var listPosition: Int { get set }
}

extension Array where Element: LedgerListed {
    mutating func list(_ element: Element) {
        element.listPosition = count
        append(element)
    }

    mutating func unlist(_ element: Element) {
        let index = element.listPosition
        guard index >= 0 else { return }
        let last = removeLast()
        if last !== element {
            self[index] = last
            last.listPosition = index
        }
        element.listPosition = -1
    }
}
