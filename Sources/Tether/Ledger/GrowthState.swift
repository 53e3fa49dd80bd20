/// What a ``Ledger`` keeps for growth, behind its lock: the scopes whose rises are running, the
/// sites touched since the last checkpoint, the sites growing at each scope's last checkpoint, and
/// the ``Ledger/onGrowth(_:)`` watchers. The counts themselves live in the owners' books
/// (``SiteCounts``), kept as entries open and close.
struct LedgerGrowth {
    /// One scope whose rises are running.
    struct Scope {
        /// Its id, never reused: a scope forgotten and named again starts afresh.
        let id: Int
        /// How many of its checkpoints have been taken.
        var ordinal = 0
        /// The ledger's checkpoint it last moved at.
        var moved = 0
        /// The sites growing at its last checkpoint, with their owners: a snapshot lists those
        /// whose owner has not ended since.
        var growing: [(site: GrowthSite, report: GrowthReport)] = []
    }

    /// A site touched in the window under way: its owner, call site and kind.
    struct Touched {
        let owner: OwnerHandle
        let site: UInt32
        let kind: EntryKind
    }

    /// Set by the ledger's `init` (its `growthRepetitions`).
    var repetitions = 3
    /// The scopes with a site whose rises are running; dropped when they have none, or when one is
    /// the oldest of more than ``scopeCapacity``, so that a program that names a scope per request
    /// keeps little of the scopes gone by.
    var scopes: [String: Scope] = [:]
    /// Each kept scope's ordinal, by id: how a site's run of another scope knows it still runs.
    var ordinals: [Int: Int] = [:]
    private var nextScope = 1
    /// How many checkpoints the ledger has taken: the window under way.
    var checkpoints = 0
    /// The sites touched since the last checkpoint, once each; kept from the first checkpoint on
    /// (that one counts every owner's sites), so that recording costs nothing more in a program
    /// that never checkpoints.
    var touched: [Touched] = []
    /// When ``touched`` is next pruned of owners no longer followed.
    var touchedLimit = 4096
    var watchers: [UInt64: GrowthWatcher] = [:]

    /// How many scopes with running rises a ledger follows at most: the most recently moved.
    static let scopeCapacity = 256

    /// `name`'s scope, made if it is not kept.
    mutating func scope(named name: String) -> Scope {
        if let known = scopes[name] { return known }
        defer { nextScope += 1 }
        return Scope(id: nextScope)
    }

    /// Keeps `scope` as `name`'s, moved now, if any of its sites rose (`rising`); drops it when
    /// none did, and the scope moved longest ago beyond ``scopeCapacity`` (with its growing
    /// sites).
    mutating func keep(_ scope: Scope, named name: String, rising: Int) {
        guard rising > 0 else {
            scopes[name] = nil
            ordinals[scope.id] = nil
            return
        }
        var scope = scope
        scope.moved = checkpoints
        scopes[name] = scope
        ordinals[scope.id] = scope.ordinal
        guard scopes.count > Self.scopeCapacity,
            let oldest = scopes.min(by: { $0.value.moved < $1.value.moved })
        else { return }
        scopes[oldest.key] = nil
        ordinals[oldest.value.id] = nil
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
    /// Counts one entry opened (`delta` 1) or closed (-1) at `site` for the owner in `slot`, and
    /// notes the site touched in this window once checkpoints are taken.
    mutating func countEntry(_ kind: EntryKind, at site: SiteIndex, by delta: Int32, ownerAt slot: Int) {
        let window = growth.checkpoints
        let first = owners.change(slot: slot) {
            $0.sites.change(site: site.rawValue, kind: kind, by: delta, in: window)
        }
        guard first, window > 0 else { return }
        growth.touched.append(.init(owner: owners.handle(at: slot), site: site.rawValue, kind: kind))
        if growth.touched.count > growth.touchedLimit { pruneTouched() }
    }

    /// Drops the touched sites of owners no longer followed; the rest are each a live site.
    private mutating func pruneTouched() {
        growth.touched.removeAll { owners.slot(of: $0.owner) == nil }
        growth.touchedLimit = max(4096, 2 * growth.touched.count)
    }

    /// One checkpoint of `scope`: reads the counts of the sites of live owners touched since the
    /// last checkpoint (every owner's, at the first), moves the runs of those that rose, and
    /// returns the sites that started growing. O(sites touched), not O(live entries).
    mutating func checkpointGrowth(scope name: String) -> [GrowthReport] {
        var scope = growth.scope(named: name)
        scope.ordinal += 1
        let window = growth.checkpoints
        let (id, ordinal, repetitions, ordinals) = (
            scope.id, scope.ordinal, growth.repetitions, growth.ordinals
        )
        var rising = 0
        var growing: [(site: GrowthSite, counts: [Int], isNew: Bool)] = []
        // Entries of an ended owner are judged by its leak verdict, never as growth.
        func visit(_ owner: OwnerRecord, _ count: inout SiteCount) {
            let seen = count.observation(in: window)
            guard seen.rose else { return }
            rising += 1
            guard
                let found = count.runs.rise(
                    in: id, at: ordinal, to: seen.live, repetitions: repetitions, ordinals: ordinals)
            else { return }
            let site = GrowthSite(owner: owner, site: count.site, kind: count.kind)
            growing.append((site, found.counts, found.isNew))
        }
        if window == 0 {
            owners.forEachBook { book in
                guard book.state.phase == .alive else { return }
                let owner = book.record
                book.sites.forEach { visit(owner, &$0) }
            }
        } else {
            for touched in growth.touched {
                guard let slot = owners.slot(of: touched.owner) else { continue }
                owners.change(slot: slot) { book in
                    guard book.state.phase == .alive else { return }
                    let owner = book.record
                    _ = book.sites.withCount(site: touched.site, kind: touched.kind) { visit(owner, &$0) }
                }
            }
        }
        growth.touched.removeAll(keepingCapacity: growth.touched.count <= 4096)
        growth.checkpoints += 1
        growth.keep(scope, named: name, rising: rising)
        return record(growing.sorted { $0.site < $1.site }, in: name)
    }

    /// Keeps `growing` as `scope`'s growing sites; returns the reports of those that started now.
    private mutating func record(
        _ growing: [(site: GrowthSite, counts: [Int], isNew: Bool)], in scope: String
    ) -> [GrowthReport] {
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
        growth.scopes[scope]?.growing = reports
        return started
    }

    /// The counters, with the sites growing now counted.
    var countersNow: LedgerSnapshot.Counters {
        var now = counters
        now.growing = growth.scopes.isEmpty ? 0 : growingNow.count
        return now
    }

    /// The sites growing at their scope's last checkpoint whose owner is still alive: by owner,
    /// site and kind, then scope.
    var growingNow: [GrowthReport] {
        growth.scopes.values.lazy.map(\.growing).joined()
            .filter { owners[$0.site.owner.handle]?.state.phase == .alive }
            .sorted { ($0.site, $0.report.scope) < ($1.site, $1.report.scope) }
            .map(\.report)
    }
}
