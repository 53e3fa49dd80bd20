/// The leaks a ledger has found, as a machine: each reported leak with the entries that
/// survived its verdict and its place in the order of reporting, the owners whose leak an
/// ancestor's covers, and the reports the leak handlers have not heard yet.
///
/// Kept apart from the owners' books, which stay small for it: few owners leak, and a report is
/// large. It knows owners by handle only; what covering means for an owner is its
/// ``OwnerState``'s, so ``forget(_:)`` hands back whom the forgotten owner covered.
struct LeakBook {
    /// A reported leak.
    struct Leak {
        /// The report, with each survivor's counts as of its end or the verdict.
        fileprivate(set) var report: LeakReport
        /// The keys of the survivors' entries, in the report's order.
        let survivors: [UInt64]
        /// Its place in the order of reporting: a key of the ledger's one sequence.
        let order: UInt64
    }

    /// The reported leaks of one signature: how many, and the first reported.
    struct Group {
        var count: Int
        var first: OwnerHandle
        var firstOrder: UInt64
    }

    private var leaks: [OwnerHandle: Leak] = [:]
    /// The leaks by signature, kept as leaks come and go: a reader of the groups' counts (a
    /// ledger's head) costs the groups, not the leaks, and no signature is hashed once per read.
    private(set) var groups: [String: Group] = [:]
    /// Owners whose leak is covered by an ancestor's, by the ancestor's key, in the order covered.
    private var coveredBy: [UInt64: [OwnerHandle]] = [:]
    /// Reports since the last ``takeUnheard()``.
    private var unheard: [LeakReport] = []

    /// Whether no leak is reported: most ledgers, whose survivors' ends then cost nothing here.
    var isEmpty: Bool { leaks.isEmpty }

    /// The leak reported for `owner`, if one is.
    func leak(of owner: OwnerHandle) -> Leak? { leaks[owner] }

    /// The leaks, in the order they were reported.
    var inOrder: [(owner: OwnerHandle, leak: Leak)] {
        leaks.sorted { $0.value.order < $1.value.order }.map { (owner: $0.key, leak: $0.value) }
    }

    /// The owners whose leak the leak of the owner with `key` covers, in the order covered.
    func covered(by key: UInt64) -> [OwnerHandle] { coveredBy[key] ?? [] }

    /// `owner` leaked: `report`, whose survivors are the entries `survivors`, is kept and told to
    /// the leak handlers.
    mutating func report(_ report: LeakReport, of owner: OwnerHandle, survivors: [UInt64], order: UInt64) {
        if let earlier = leaks.updateValue(
            Leak(report: report, survivors: survivors, order: order), forKey: owner)
        {
            ungroup(earlier, of: owner)
        }
        groups[report.signature, default: Group(count: 0, first: owner, firstOrder: order)].count += 1
        unheard.append(report)
    }

    /// Takes `leak` of `owner`, no longer reported, out of its group; the next of the group
    /// becomes its first if it was.
    private mutating func ungroup(_ leak: Leak, of owner: OwnerHandle) {
        let signature = leak.report.signature
        guard var group = groups[signature] else { return }
        group.count -= 1
        if group.count == 0 {
            groups[signature] = nil
            return
        }
        if group.first == owner,
            let next = leaks.filter({ $0.value.report.signature == signature }).min(by: {
                $0.value.order < $1.value.order
            })
        {
            (group.first, group.firstOrder) = (next.key, next.value.order)
        }
        groups[signature] = group
    }

    /// An entry `key` of `owner`, whose leak is reported, ended: if it survived the verdict, the
    /// report keeps `survivor`, its line as of its end (what it delivered by then).
    mutating func entryEnded(_ key: UInt64, of owner: OwnerHandle, as survivor: LeakReport.Survivor) {
        guard let leak = leaks[owner], let index = leak.survivors.firstIndex(of: key) else { return }
        var survivors = leak.report.survivors
        survivors[index] = survivor
        leaks[owner]?.report = leak.report.counted(survivors)
    }

    /// `child`'s leak is covered by the leak (or pending verdict) of the owner with key `ancestor`.
    mutating func cover(_ child: OwnerHandle, by ancestor: UInt64) {
        coveredBy[ancestor, default: []].append(child)
    }

    /// `owner` settled and is forgotten: its leak goes, and so does what it covered — the owners
    /// handed back, for the caller to move on.
    mutating func forget(_ owner: OwnerHandle) -> [OwnerHandle] {
        if !leaks.isEmpty, let leak = leaks.removeValue(forKey: owner) { ungroup(leak, of: owner) }
        guard !coveredBy.isEmpty else { return [] }
        return coveredBy.removeValue(forKey: owner.key) ?? []
    }

    /// The reports since the last call, for the leak handlers.
    mutating func takeUnheard() -> [LeakReport] {
        guard !unheard.isEmpty else { return [] }
        defer { unheard = [] }
        return unheard
    }
}
