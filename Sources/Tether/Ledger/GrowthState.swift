/// What a ``Ledger`` keeps for growth, behind its lock: a tracker for each scope whose rises are
/// running, the counts the last checkpoint took, the sites growing at each scope's last
/// checkpoint, and the ``Ledger/onGrowth(_:)`` watchers. Empty, and never touched by recording,
/// until the first checkpoint.
struct LedgerGrowth {
    /// Set by the ledger's `init` (its `growthRepetitions`).
    var repetitions = 3
    /// A tracker for each scope with a site whose rises are running, and the checkpoint it last
    /// moved at; dropped when it has none, or when it is the oldest of more than
    /// ``scopeCapacity``, so that a program that names a scope per request keeps little of the
    /// scopes gone by.
    var trackers: [String: (tracker: GrowthTracker<GrowthSite>, moved: Int)] = [:]
    /// How many checkpoints the ledger has taken.
    var checkpoints = 0
    /// Each site's live entries at the last checkpoint, of any scope: where the next repetition
    /// begins.
    var before: [GrowthSite: Int] = [:]
    /// The sites growing at each scope's last checkpoint, with their owners: a snapshot lists
    /// those whose owner has not ended since.
    var growing: [String: [(site: GrowthSite, report: GrowthReport)]] = [:]
    var watchers: [UInt64: GrowthWatcher] = [:]

    /// How many scopes with running rises a ledger follows at most: the most recently moved.
    static let scopeCapacity = 256

    /// Keeps `tracker` as `scope`'s, moved now; drops it when it follows nothing, and the scope
    /// moved longest ago beyond ``scopeCapacity`` (with its growing sites).
    mutating func keep(_ tracker: GrowthTracker<GrowthSite>, for scope: String) {
        guard tracker.count > 0 else {
            trackers[scope] = nil
            return
        }
        trackers[scope] = (tracker, checkpoints)
        guard trackers.count > Self.scopeCapacity,
            let oldest = trackers.min(by: { $0.value.moved < $1.value.moved })?.key
        else { return }
        trackers[oldest] = nil
        growing[oldest] = nil
    }
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
    /// One checkpoint of `scope`: counts the live entries of each live owner by site and kind,
    /// moves the scope's tracker with what rose since the last checkpoint, and returns the sites
    /// that started growing. O(live entries).
    mutating func checkpointGrowth(scope: String) -> [GrowthReport] {
        var counts: [GrowthSite: Int] = [:]
        counts.reserveCapacity(growth.before.count)  // as many sites as last time, most likely
        // Entries of an ended owner are judged by its leak verdict, never as growth.
        for book in owners.values where book.state.phase == .alive {
            for entry in book.entries.values.lazy.map(\.entry) {
                let site = GrowthSite(owner: book.record, site: entry.siteIndex.rawValue, kind: entry.kind)
                counts[site, default: 0] += 1
            }
        }
        let before = growth.before
        growth.checkpoints += 1
        var tracker = growth.trackers[scope]?.tracker ?? GrowthTracker(repetitions: growth.repetitions)
        let growing = tracker.checkpoint(
            counts.lazy.map { site, live in (site, .init(live: live, before: before[site] ?? 0)) })
        growth.keep(tracker, for: scope)
        growth.before = counts
        return record(growing, in: scope)
    }

    /// Keeps `growing` as `scope`'s growing sites; returns the reports of those that started now.
    private mutating func record(_ growing: [GrowthTracker<GrowthSite>.Growing], in scope: String)
        -> [GrowthReport]
    {
        var started: [GrowthReport] = []
        let reports = growing.map { found in
            let owner = found.site.owner
            let report = GrowthReport(
                owner: id(of: owner), ownerSite: sites[owner.siteIndex], kind: found.site.kind,
                site: sites[SiteIndex(rawValue: found.site.site)], counts: found.counts,
                live: found.counts.last ?? 0, scope: scope)
            if found.isNew { started.append(report) }
            return (found.site, report)
        }
        growth.growing[scope] = reports.isEmpty ? nil : reports
        return started
    }

    /// The counters, with the sites growing now counted.
    var countersNow: LedgerSnapshot.Counters {
        var now = counters
        now.growing = growth.growing.isEmpty ? 0 : growingNow.count
        return now
    }

    /// The sites growing at their scope's last checkpoint whose owner is still alive: by owner,
    /// site and kind, then scope.
    var growingNow: [GrowthReport] {
        growth.growing.values.joined()
            .filter { owners[$0.site.owner.handle]?.state.phase == .alive }
            .sorted { ($0.site, $0.report.scope) < ($1.site, $1.report.scope) }
            .map(\.report)
    }
}
