/// The head of a ledger's lists at one instant: a ``LedgerSnapshot`` cut to what a view that shows
/// the first rows of each list draws, with counts of what it leaves out.
///
/// A snapshot copies out and sorts every owner, entry and leak, and a leaked owner stays in the
/// ledger with its entries: in a program that piles up leaks, each snapshot costs more than the
/// last. A head copies out only the oldest owners of each state and the first leak of each group,
/// and counts the rest in a pass that copies nothing, so a view that redraws on every change (an
/// inspector) pays for what it shows. Take a snapshot when every owner or leak is wanted.
///
/// ```swift
/// let head = ledger.headRearmingOnChange(limit: 20)
/// for group in head.leakGroups { print(group.signature, "×\(group.count)") }
/// ```
public struct LedgerHead: Sendable, Equatable {
    /// The leaks of one signature: how many there are, and the first found.
    public struct LeakGroup: Sendable, Equatable {
        /// The group's first leak, as the snapshot lists it.
        public let first: LedgerSnapshot.Leak
        /// How many leaks the group has: the snapshot's group's count.
        public let count: Int

        public var signature: String { first.signature }
    }

    /// When the head was taken, on the ledger's clock.
    public let time: Duration
    public let counters: LedgerSnapshot.Counters
    /// The snapshot's owners, oldest first, keeping of each state (alive, ended, leaked) only the
    /// oldest `limit`.
    public let owners: [LedgerSnapshot.Owner]
    /// How many owners the snapshot lists: those left out included.
    public let ownerCount: Int
    /// How many live entries those owners hold: those of the owners left out included.
    public let ownerEntryCount: Int
    /// Live entries with no owner, oldest first: all of them, as the snapshot lists them.
    public let unowned: [LedgerSnapshot.Entry]
    /// The snapshot's ``LedgerSnapshot/leakGroups``, in its order, each with its count and its
    /// first leak.
    public let leakGroups: [LeakGroup]
    /// As the snapshot's ``LedgerSnapshot/growth``.
    public let growth: [GrowthReport]
    /// As the snapshot's ``LedgerSnapshot/events``: the log, oldest first.
    public let events: [LedgerEvent]
}

extension Ledger {
    /// The ledger now, its owners cut to the oldest `limit` of each state and its leaks to the
    /// first of each group (``LedgerHead``). Taking one re-arms ``onChange(_:)`` handlers, as
    /// ``snapshotRearmingOnChange()`` does.
    public func headRearmingOnChange(limit: Int) -> LedgerHead {
        changePending.store(false, ordering: .releasing)
        let now = clock.now
        return state.withLock { $0.head(at: now, limit: max(0, limit)) }
    }
}

extension LedgerState {
    func head(at now: Duration, limit: Int) -> LedgerHead {
        // Of each state, the oldest `limit` books, by key; few, so kept in order as they come.
        var oldest: [[OwnerBook]] = [[], [], []]
        var ownerCount = 0
        var entryCount = 0
        for book in owners.values {
            ownerCount += 1
            entryCount += book.entries.count
            guard limit > 0 else { continue }
            let state =
                switch Self.snapshotState(of: book.state) {
                case .alive: 0
                case .ended: 1
                case .leaked: 2
                }
            let key = book.record.key
            if oldest[state].count == limit {
                guard key < oldest[state][limit - 1].record.key else { continue }
                oldest[state].removeLast()
            }
            let index = oldest[state].firstIndex { $0.record.key > key } ?? oldest[state].count
            oldest[state].insert(book, at: index)
        }
        let kept = oldest.joined().sorted { $0.record.key < $1.record.key }
        return LedgerHead(
            time: now, counters: countersNow, owners: kept.map { snapshotOwner($0, at: now) },
            ownerCount: ownerCount, ownerEntryCount: entryCount,
            unowned: snapshotEntries(unowned.values, at: now), leakGroups: leakGroupHeads(),
            growth: growingNow, events: log.ordered(sites: sites, names: ownerNames))
    }

    /// The leaks grouped by signature, each group with its count and its first leak, in the order
    /// of their first leaks: the leak book keeps the groups, so this costs the groups alone.
    private func leakGroupHeads() -> [LedgerHead.LeakGroup] {
        leaks.groups.values.sorted { $0.firstOrder < $1.firstOrder }.compactMap { group in
            guard let leak = leaks.leak(of: group.first) else { return nil }
            return LedgerHead.LeakGroup(
                first: snapshotLeak(of: group.first, leak.report, survivors: leak.survivors),
                count: group.count)
        }
    }
}
