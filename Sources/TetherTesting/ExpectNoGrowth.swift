import Testing
import Tether

/// Runs `body` `repetitions` times and records a Swift Testing issue for each call site whose live
/// entries under one live owner rose in every run: a binding that a long-lived object collects
/// each time, which no leak verdict sees because that object never ends.
///
/// `body` runs with `ledger` as `Ledger.current` (by default, the current one), and the ledger is
/// checkpointed (``Ledger/checkpoint(scope:)``, in a scope of its own) after each run. A site grew in a run when it had more
/// live entries after it than before it; the first run compares with the ledger as it was when
/// the helper was called. Each issue's comment is the site's ``GrowthReport``, its counts those
/// after each run.
///
/// ```swift
/// @Test func presentingTheSheetLeavesNothingInTheSession() async {
///     let session = AppSession()
///     await expectNoGrowth {
///         let sheet = SheetViewModel(session: session)
///         sheet.dismiss()
///     }
/// }
/// ```
///
/// - Parameters:
///   - repetitions: How many times to run `body`; at least 1.
///   - ledger: The ledger to run in; nil for `Ledger.current`.
///   - body: One repetition: present and dismiss a screen, serve a request.
public func expectNoGrowth(
    repetitions: Int = 3, ledger: Ledger? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async rethrows {
    let ledger = ledger ?? Ledger.current
    var before = LiveSites(ledger.snapshot())
    // The sites that grew in every run so far, with their counts after each run.
    var growing: [LiveSites.Site: [Int]] = [:]
    for run in 0..<max(1, repetitions) {
        try await Ledger.$current.withValue(ledger) { try await body() }
        ledger.checkpoint(scope: "expectNoGrowth")
        let after = LiveSites(ledger.snapshot())
        var stillGrowing: [LiveSites.Site: [Int]] = [:]
        for (site, count) in after.counts where count > before.counts[site, default: 0] {
            if run == 0 {
                stillGrowing[site] = [count]
            } else if let counts = growing[site] {
                stillGrowing[site] = counts + [count]
            }
        }
        growing = stillGrowing
        before = after
    }
    for (site, counts) in growing.sorted(by: { $0.key < $1.key }) {
        let report = GrowthReport(
            owner: site.owner, ownerSite: before.ownerSites[site.owner] ?? site.site, kind: site.kind,
            site: site.site, counts: counts, live: counts.last ?? 0)
        Issue.record(Comment(rawValue: report.description), sourceLocation: sourceLocation)
    }
}

/// The live entries of a snapshot's live owners, counted by owner, kind and call site.
private struct LiveSites {
    struct Site: Hashable, Comparable {
        let owner: OwnerID
        let kind: EntryKind
        let site: CallSite

        static func < (lhs: Site, rhs: Site) -> Bool {
            (lhs.owner, lhs.site.description, lhs.kind.rawValue)
                < (rhs.owner, rhs.site.description, rhs.kind.rawValue)
        }
    }

    var counts: [Site: Int] = [:]
    var ownerSites: [OwnerID: CallSite] = [:]

    init(_ snapshot: LedgerSnapshot) {
        for owner in snapshot.owners where owner.state == .alive {
            ownerSites[owner.id] = owner.site
            for entry in owner.entries {
                counts[Site(owner: owner.id, kind: entry.kind, site: entry.site), default: 0] += 1
            }
        }
    }
}
