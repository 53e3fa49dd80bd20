import Testing
import Tether

/// Runs `body` `repetitions` times and records a Swift Testing issue for each call site whose live
/// entries under one live owner rose in every run: a binding that a long-lived object collects
/// each time, which no leak verdict sees because that object never ends.
///
/// Only what `body` made counts: the entries it opened — in its task and in the tasks it starts —
/// and are still live after a run, under whichever owner holds them (the long-lived object it
/// grows into may well be made outside `body`). Other tests binding in the same ledger meanwhile,
/// and whatever was live before, are not judged. The helper takes no checkpoint: the ledger's
/// scopes, its growth and its ``Ledger/onGrowth(_:)`` watchers see nothing of it. Work `body`
/// hands to no task of its own (`Task.detached`, a Dispatch queue, a thread) is not seen.
///
/// `body` runs with `ledger` as `Ledger.current` (by default, the current one). A site grew in a
/// run when more of what `body` made was live there after it than before it; the first run
/// compares with nothing. Each issue's comment is the site's ``GrowthReport``, its counts those
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
    let probe = GrowthProbe(ledger: ledger)
    var before: [GrowthProbe.Site: Int] = [:]
    // The sites that grew in every run so far, with their counts after each run.
    var growing: [GrowthProbe.Site: [Int]] = [:]
    for run in 0..<max(1, repetitions) {
        try await probe.run { try await Ledger.$current.withValue(ledger) { try await body() } }
        let after = probe.liveSites()
        var stillGrowing: [GrowthProbe.Site: [Int]] = [:]
        for (site, count) in after where count > before[site, default: 0] {
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
            owner: site.owner, ownerSite: site.ownerSite, kind: site.kind, site: site.site, counts: counts,
            live: counts.last ?? 0)
        Issue.record(Comment(rawValue: report.description), sourceLocation: sourceLocation)
    }
}
