/// Which sites grow from one checkpoint to the next: the pure state machine behind
/// ``Ledger/checkpoint()``, driven by the counts a checkpoint takes.
///
/// A *site* is anything counted at each checkpoint (the ledger's: one owner, one call site, one
/// kind of entry). A site whose count rose at each of the last `repetitions` checkpoints is
/// *growing*; it stops at the first checkpoint where its count did not rise, and a later run of
/// rises is a new *episode*. A site missing from a checkpoint's counts has nothing live: its
/// count is 0, and it is forgotten, so the tracker holds only the sites live now.
struct GrowthTracker<Site: Hashable & Comparable> {
    /// One checkpoint's verdict on a growing site.
    struct Growing: Equatable {
        let site: Site
        /// The counts at the last `repetitions` checkpoints, oldest first.
        let counts: [Int]
        /// Whether the site started growing at this checkpoint: a new episode.
        let isNew: Bool
    }

    private struct History {
        /// The counts at the last `repetitions` checkpoints at most, oldest first.
        var counts: [Int]
        /// Rises in a row up to the last checkpoint, at most `repetitions`.
        var rises: Int
    }

    /// How many rises in a row make a site growing; at least 1.
    let repetitions: Int
    private var history: [Site: History] = [:]

    init(repetitions: Int) { self.repetitions = max(1, repetitions) }

    /// Records one checkpoint: each live site's count now (a site left out counts 0). Returns the
    /// sites growing now, in order; a site that was already growing is not new.
    mutating func checkpoint(_ counts: [Site: Int]) -> [Growing] {
        var next: [Site: History] = [:]
        next.reserveCapacity(counts.count)
        var growing: [Growing] = []
        for (site, count) in counts where count > 0 {
            let previous = history[site]
            let rose = count > (previous?.counts.last ?? 0)
            var counts = previous?.counts ?? []
            counts.append(count)
            if counts.count > repetitions { counts.removeFirst(counts.count - repetitions) }
            let rises = rose ? min((previous?.rises ?? 0) + 1, repetitions) : 0
            next[site] = History(counts: counts, rises: rises)
            if rises == repetitions {
                let wasGrowing = previous?.rises == repetitions
                growing.append(Growing(site: site, counts: counts, isNew: !wasGrowing))
            }
        }
        history = next
        return growing.sorted { $0.site < $1.site }
    }

    /// How many sites the tracker follows: those live at the last checkpoint.
    var count: Int { history.count }
}
