import Synchronization
import Tether
import TetherInspector

/// Feeds the lab's inspector its ledger, frame after frame: a new snapshot only when something it
/// shows may have changed; of that snapshot, only the leaks that changed converted anew; and
/// while the inspector shows the head of each list, only that head of the ledger.
///
/// A frame in which neither the ledger, nor the lab's screens, nor lab time moved shows the
/// inspector as the last one did, so it reads nothing. A leaked owner stays in the ledger with
/// its entries, and a leak stays from its verdict on: read whole each frame, a lab that piled up
/// leaks would spend each frame copying, converting and ordering every one of them. Unfocused,
/// with nothing selected, filtered or collapsed, the inspector draws the first rows of its lists,
/// so it is fed the ledger's head (`Ledger.headRearmingOnChange(limit:)`): the oldest owners of each state and
/// the first leak of each group, with counts of the rest. A leak's wire form carries its whole
/// report, trace text included; a report changes only while its survivors deliver (zombie
/// deliveries), so the conversion of an unchanged leak is kept. Main-actor isolated, as the lab
/// is, but for ``ledgerChanged()``; lives as long as it.
@MainActor
final class InspectorFeed {
    /// How many times the ledger said it changed.
    private nonisolated let ledgerChanges = Atomic<Int>(0)
    /// What the last feed saw.
    private var lastFed: Mark?

    private struct Mark: Equatable {
        var ledgerChanges: Int
        var labChanges: Int
        var time: Duration
        var rows: Int?
    }

    /// Notes that the ledger changed: its change handler calls this, on whatever thread changed it.
    nonisolated func ledgerChanged() {
        ledgerChanges.add(1, ordering: .relaxed)
    }

    /// Feeds `inspector` the ledger as it is now, unless nothing it shows can have changed since
    /// the last feed: the ledger (``ledgerChanged()``), the lab's screens (`labChanges`, a count
    /// that moves with them), lab time, or `rows`. With `rows`, the inspector draws no more than
    /// that many rows of a list (it shows their heads, ``Inspector/needsEveryRow`` is false): it
    /// is fed the ledger's head, cut to `rows`. Without, the whole snapshot.
    func feed(_ inspector: Inspector, from ledger: Ledger, labChanges: Int, rows: Int? = nil) {
        // Read before the snapshot: a change after it is told again, and fed next time.
        let mark = Mark(
            ledgerChanges: ledgerChanges.load(ordering: .relaxed), labChanges: labChanges,
            time: ledger.clock.now, rows: rows)
        guard mark != lastFed else { return }
        lastFed = mark
        if let rows {
            let (snapshot, cut) = convert(ledger.headRearmingOnChange(limit: rows), rows: rows)
            inspector.update(snapshot, cut: cut)
        } else {
            inspector.update(convert(ledger.snapshotRearmingOnChange()))
        }
    }

    /// The inspector's view of `head`, taken with limit `rows`: a snapshot of its owners and of
    /// each group's first leak, and what it leaves out.
    func convert(_ head: LedgerHead, rows: Int) -> (InspectorSnapshot, InspectorContent.Cut) {
        var kept: [OwnerID: Conversion] = [:]
        let leaks = head.leakGroups.map { group in
            let leak = group.first
            let converted =
                firstLeaks[leak.owner].flatMap { $0.source == leak ? $0.converted : nil }
                ?? InspectorSnapshot.Leak(leak)
            kept[leak.owner] = (leak, converted)
            return converted
        }
        firstLeaks = kept
        let snapshot = InspectorSnapshot(
            time: head.time, counters: head.counters, owners: head.owners.map(InspectorSnapshot.Owner.init),
            unowned: head.unowned.map(InspectorSnapshot.Entry.init), leaks: leaks,
            growth: head.growth.map(InspectorGrowthReport.init),
            events: head.events.map(InspectorSnapshot.Event.init))
        let cut = InspectorContent.Cut(
            groupCounts: Dictionary(
                head.leakGroups.map { ($0.signature, $0.count) }, uniquingKeysWith: { first, _ in first }),
            ownerCount: head.ownerCount, ownerEntryCount: head.ownerEntryCount, rows: rows)
        return (snapshot, cut)
    }

    private typealias Conversion = (source: LedgerSnapshot.Leak, converted: InspectorSnapshot.Leak)
    /// The last snapshot's leaks and their conversions, in its order.
    private var leaks: [Conversion] = []
    /// The last head's first leaks and their conversions, by owner.
    private var firstLeaks: [OwnerID: Conversion] = [:]

    /// The inspector's view of `snapshot`, equal to `InspectorSnapshot(snapshot)`.
    func convert(_ snapshot: LedgerSnapshot) -> InspectorSnapshot {
        var kept: [Conversion] = []
        kept.reserveCapacity(snapshot.leaks.count)
        // Leaks keep their order from one snapshot to the next (new ones come last), so the last
        // snapshot's are walked alongside; one that went (its survivors ended) is stepped over.
        var next = 0
        let result = InspectorSnapshot(snapshot) { leak in
            var known: InspectorSnapshot.Leak?
            if let index = leaks[next...].prefix(2).firstIndex(where: { $0.source.owner == leak.owner }) {
                next = index + 1
                if leaks[index].source == leak { known = leaks[index].converted }
            }
            let converted = known ?? InspectorSnapshot.Leak(leak)
            kept.append((leak, converted))
            return converted
        }
        leaks = kept
        return result
    }
}
