import Tether
import TetherInspector

/// Turns the lab's ledger snapshots into the inspector's model, frame after frame, converting
/// only the leaks that changed since the last one.
///
/// A leak's wire form carries its whole report, trace text included, and a leak stays in every
/// snapshot from its verdict on: converted anew each frame, a lab that piled up leaks would
/// spend each frame writing out every report it ever made. A report changes only while its
/// survivors deliver (zombie deliveries), so the conversion of an unchanged leak is kept.
/// Main-actor isolated, as the lab is; lives as long as it.
@MainActor
final class InspectorFeed {
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
