import Tether
import TetherInspector

/// What the inspector lists for one snapshot: the growing sites, the leak groups, and the owner
/// tree — leaked owners first, then ended ones, then the living, each in the order it was made,
/// its entries under it unless collapsed — all narrowed by the filter. Pure: the same snapshot,
/// filter and collapsed owners give the same content. A plain value: `Sendable`.
///
/// From a snapshot of a ledger's head (`LedgerHead`, with its ``Cut``) it lists the head of the
/// tree and the groups with their counts: the rows an inspector that shows the head of each list
/// draws, the same as from the whole snapshot.
struct InspectorContent: Sendable, Equatable {
    /// What the selection can rest on. Entries are named by their owner and position, so a
    /// selection survives a new snapshot of the same tree.
    enum Item: Hashable, Sendable {
        /// A growing site: its owner, kind and call site.
        case growth(owner: OwnerID, kind: EntryKind, site: InspectorSnapshot.Site, scope: String)
        case leakGroup(String)
        case owner(OwnerID)
        case entry(owner: OwnerID?, index: Int)
    }

    /// One row of the tree. Indirect: unboxed, its case is kept in bits of its payloads'
    /// padding, which `make memcheck` reads as uninitialised whenever a row is tested for a case.
    indirect enum TreeRow: Sendable, Equatable {
        case owner(InspectorSnapshot.Owner, expanded: Bool)
        case entry(InspectorSnapshot.Entry, owner: OwnerID?, index: Int)
        /// The heading of the entries that have no owner.
        case unownedHeading

        var item: Item? {
            switch self {
            case .owner(let owner, _): .owner(owner.id)
            case .entry(_, let owner, let index): .entry(owner: owner, index: index)
            case .unownedHeading: nil
            }
        }
    }

    /// A leak group as listed: the group, and how many leaks it has (from a head, the group
    /// holds its first leak only).
    struct Group: Sendable, Equatable {
        var group: InspectorSnapshot.LeakGroup
        var count: Int

        var signature: String { group.signature }
    }

    /// What a snapshot of a ledger's head leaves out: its owners are the oldest `rows` of each
    /// state, its leaks the first of each group. Only for content with no filter and nothing
    /// collapsed, which lists every owner and entry.
    struct Cut: Sendable, Equatable {
        /// How many leaks each group has, by signature.
        var groupCounts: [String: Int]
        /// How many owners the ledger follows, and how many live entries they hold.
        var ownerCount: Int
        var ownerEntryCount: Int
        /// How many rows of the tree the head holds: of each state, its owners are the oldest
        /// `rows`, so the tree's first `rows` rows are all there.
        var rows: Int
    }

    var growth: [InspectorGrowthReport]
    var groups: [Group]
    /// The tree's rows; from a head, its first rows only.
    var tree: [TreeRow]
    /// How many rows the tree has: `tree.count`, or from a head, those it left out included.
    var treeCount: Int
    /// Every row the selection can rest on, in screen order: the growing sites, the leak groups,
    /// then the tree.
    var items: [Item]
    /// How many owners the snapshot has, before the filter.
    var ownerCount: Int
    /// How many owners the tree lists, after the filter.
    var shownOwnerCount = 0

    init(_ snapshot: InspectorSnapshot, filter: String = "", collapsed: Set<OwnerID> = [], cut: Cut? = nil) {
        assert(cut == nil || (filter.isEmpty && collapsed.isEmpty), "a head lists every owner and entry")
        let needle = filter.lowercased()
        func matches(_ texts: String...) -> Bool {
            needle.isEmpty || texts.contains { $0.lowercased().contains(needle) }
        }
        growth = snapshot.growth.filter {
            matches($0.signature, $0.owner.description, $0.site.fileID, $0.scope)
        }
        groups = snapshot.leakGroups.filter { group in
            matches(group.signature) || group.leaks.contains { matches($0.owner.description, $0.site.fileID) }
        }.map { Group(group: $0, count: cut?.groupCounts[$0.signature] ?? $0.count) }
        var tree: [TreeRow] = []
        for owner in InspectorContent.sorted(snapshot.owners) {
            let ownerMatches = matches(owner.id.description, owner.site.fileID)
            let entries = owner.entries.enumerated().filter {
                ownerMatches || matches($0.element.site.fileID)
            }
            guard ownerMatches || !entries.isEmpty else { continue }
            let expanded = !collapsed.contains(owner.id)
            tree.append(.owner(owner, expanded: expanded))
            shownOwnerCount += 1
            guard expanded else { continue }
            tree += entries.map { .entry($0.element, owner: owner.id, index: $0.offset) }
        }
        let unowned = snapshot.unowned.enumerated().filter { matches($0.element.site.fileID) }
        if !unowned.isEmpty {
            tree.append(.unownedHeading)
            tree += unowned.map { .entry($0.element, owner: nil, index: $0.offset) }
        }
        treeCount = tree.count
        ownerCount = snapshot.owners.count
        if let cut {
            tree = Array(tree.prefix(cut.rows))
            treeCount = cut.ownerCount + cut.ownerEntryCount + (unowned.isEmpty ? 0 : 1 + unowned.count)
            ownerCount = cut.ownerCount
            shownOwnerCount = cut.ownerCount
        }
        self.tree = tree
        items =
            growth.map(InspectorContent.item) + groups.map { .leakGroup($0.signature) }
            + tree.compactMap(\.item)
    }

    /// Leaked owners first, then ended ones, then the living; each kind in the order made.
    static func sorted(_ owners: [InspectorSnapshot.Owner]) -> [InspectorSnapshot.Owner] {
        owners.filter { $0.state == .leaked } + owners.filter { $0.state == .ended }
            + owners.filter { $0.state == .alive }
    }

    /// The row of a growing site.
    static func item(_ report: InspectorGrowthReport) -> Item {
        .growth(owner: report.owner, kind: report.kind, site: report.site, scope: report.scope)
    }

    /// The growing site an item names, if it names one.
    func growth(_ item: Item?) -> InspectorGrowthReport? {
        guard case .growth? = item else { return nil }
        return growth.first { InspectorContent.item($0) == item }
    }

    /// The group an item names, if it names one.
    func group(_ item: Item?) -> InspectorSnapshot.LeakGroup? {
        guard case .leakGroup(let signature)? = item else { return nil }
        return groups.first { $0.signature == signature }?.group
    }
}
