import Synchronization

/// What a body made, for TetherTesting's `expectNoGrowth`: the entries it opens in one ledger —
/// in its task and the tasks it starts, which inherit the probe — counted by owner and site, and
/// nothing else of the ledger. A probe neither checkpoints nor tells anyone: other tests on the
/// ledger, its scopes and its growth watchers see nothing of it.
///
/// Work the body hands off to no task of its own (a detached task, a Dispatch queue, a thread)
/// records without the probe.
package final class GrowthProbe: Sendable {
    /// One owner's entries of one kind at one call site.
    package struct Site: Hashable, Comparable, Sendable {
        package let owner: OwnerID
        package let ownerSite: CallSite
        package let kind: EntryKind
        package let site: CallSite

        package static func < (lhs: Site, rhs: Site) -> Bool {
            (lhs.owner, lhs.site.description, lhs.kind.rawValue)
                < (rhs.owner, rhs.site.description, rhs.kind.rawValue)
        }
    }

    @TaskLocal static var current: GrowthProbe?

    let ledger: Ledger
    /// The entries the body opened that had not ended at the last count.
    private let entries = Mutex<[LedgerEntry]>([])

    package init(ledger: Ledger) { self.ledger = ledger }

    /// Runs `body` with the probe recording the entries it opens in the probe's ledger.
    package func run<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
    ) async rethrows -> Result {
        ledger.probes.add(1, ordering: .relaxed)
        defer { ledger.probes.subtract(1, ordering: .relaxed) }
        return try await Self.$current.withValue(self) { try await body() }
    }

    func record(_ entry: LedgerEntry) { entries.withLock { $0.append(entry) } }

    /// The entries the body opened that are still live, of owners still alive, by owner, kind and
    /// call site.
    package func liveSites() -> [Site: Int] {
        let live = entries.withLock { entries in
            entries.removeAll { $0.hasEnded || $0.owner?.hasEnded != false }
            return entries
        }
        return ledger.state.withLock { state in
            var counts: [Site: Int] = [:]
            for entry in live {
                guard let owner = entry.owner else { continue }
                let site = Site(
                    owner: state.id(of: owner), ownerSite: state.sites[owner.siteIndex], kind: entry.kind,
                    site: state.sites[entry.siteIndex])
                counts[site, default: 0] += 1
            }
            return counts
        }
    }
}
