/// What a ``Ledger`` keeps for growth, behind its lock: the tracker, the sites growing at the last
/// checkpoint, and the ``Ledger/onGrowth(_:)`` watchers. Empty, and never touched by recording,
/// until the first checkpoint.
struct LedgerGrowth {
    /// Set by the ledger's `init` (its `growthRepetitions`).
    var tracker = GrowthTracker<GrowthSite>(repetitions: 3)
    /// The sites growing at the last checkpoint, with their owners: a snapshot lists those whose
    /// owner has not ended since.
    var growing: [(owner: OwnerRecord, report: GrowthReport)] = []
    var watchers: [UInt64: GrowthWatcher] = [:]
}

/// One site the ledger counts at a checkpoint: an owner, a call site, a kind of entry.
struct GrowthSite: Hashable, Comparable {
    let owner: OwnerRecord
    let site: UInt32
    let kind: EntryKind

    static func == (lhs: GrowthSite, rhs: GrowthSite) -> Bool {
        lhs.owner === rhs.owner && lhs.site == rhs.site && lhs.kind == rhs.kind
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(owner.key)
        hasher.combine(site)
        hasher.combine(kind.order)  // not the kind itself: that would hash its name
    }

    /// Owners in the order they were made, then sites in the order first recorded.
    static func < (lhs: GrowthSite, rhs: GrowthSite) -> Bool {
        (lhs.owner.key, lhs.site, lhs.kind.order) < (rhs.owner.key, rhs.site, rhs.kind.order)
    }
}

extension EntryKind {
    fileprivate var order: Int {
        switch self {
        case .subscription: 0
        case .task: 1
        case .observer: 2
        case .binding: 3
        }
    }
}

extension LedgerState {
    /// One checkpoint: counts the live entries of each live owner by site and kind, moves the
    /// tracker, and returns the sites that started growing. O(live entries).
    mutating func checkpointGrowth() -> [GrowthReport] {
        var counts: [GrowthSite: Int] = [:]
        counts.reserveCapacity(growth.tracker.count)  // as many sites as last time, most likely
        // Entries of an ended owner are judged by its leak verdict, never as growth.
        for book in owners.values where book.state.phase == .alive {
            for entry in book.entries.values.lazy.map(\.entry) {
                let site = GrowthSite(owner: book.record, site: entry.siteIndex.rawValue, kind: entry.kind)
                counts[site, default: 0] += 1
            }
        }
        let growing = growth.tracker.checkpoint(counts)
        var started: [GrowthReport] = []
        growth.growing = growing.map { found in
            let owner = found.site.owner
            let report = GrowthReport(
                owner: id(of: owner), ownerSite: sites[owner.siteIndex], kind: found.site.kind,
                site: sites[SiteIndex(rawValue: found.site.site)], counts: found.counts,
                live: found.counts.last ?? 0)
            if found.isNew { started.append(report) }
            return (owner, report)
        }
        return started
    }

    /// The counters, with the sites growing now counted.
    var countersNow: LedgerSnapshot.Counters {
        var now = counters
        now.growing = growth.growing.isEmpty ? 0 : growingNow.count
        return now
    }

    /// The sites growing at the last checkpoint whose owner is still alive.
    var growingNow: [GrowthReport] {
        growth.growing.compactMap { owners[$0.owner.handle]?.state.phase == .alive ? $0.report : nil }
    }
}
