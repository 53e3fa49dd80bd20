import Synchronization
import Tether
import TetherInspector

/// Feeds the lab's inspector its ledger, frame after frame: a new snapshot only when something it
/// shows may have changed, and of that snapshot, only the leaks that changed converted anew.
///
/// A frame in which neither the ledger, nor the lab's screens, nor lab time moved shows the
/// inspector as the last one did, so it takes no snapshot (a snapshot copies every owner and
/// leak out of the ledger). A leak's wire form carries its whole report, trace text included,
/// and a leak stays in every snapshot from its verdict on: converted anew each frame, a lab that
/// piled up leaks would spend each frame writing out every report it ever made. A report changes
/// only while its survivors deliver (zombie deliveries), so the conversion of an unchanged leak
/// is kept. Main-actor isolated, as the lab is, but for ``ledgerChanged()``; lives as long as it.
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
    }

    /// Notes that the ledger changed: its change handler calls this, on whatever thread changed it.
    nonisolated func ledgerChanged() {
        ledgerChanges.add(1, ordering: .relaxed)
    }

    /// Feeds `inspector` the ledger as it is now, unless nothing it shows can have changed since
    /// the last feed: the ledger (``ledgerChanged()``), the lab's screens (`labChanges`, a count
    /// that moves with them) or lab time.
    func feed(_ inspector: Inspector, from ledger: Ledger, labChanges: Int) {
        // Read before the snapshot: a change after it is told again, and fed next time.
        let mark = Mark(
            ledgerChanges: ledgerChanges.load(ordering: .relaxed), labChanges: labChanges,
            time: ledger.clock.now)
        guard mark != lastFed else { return }
        lastFed = mark
        inspector.update(convert(ledger.snapshotRearmingOnChange()))
    }

    private typealias Conversion = (source: LedgerSnapshot.Leak, converted: InspectorSnapshot.Leak)
    /// The last snapshot's leaks and their conversions, in its order.
    private var leaks: [Conversion] = []

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
