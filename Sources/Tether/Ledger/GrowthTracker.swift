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
        /// The last checkpoint the site was live at.
        var seen: Int
    }

    /// How many rises in a row make a site growing; at least 1.
    let repetitions: Int
    private var history: [Site: History] = [:]
    private var checkpoints = 0

    init(repetitions: Int) { self.repetitions = max(1, repetitions) }

    /// Records one checkpoint: each live site's count now (a site left out counts 0). Returns the
    /// sites growing now, in order; a site that was already growing is not new.
    ///
    /// Each site's history is changed in place: a checkpoint over sites it knows allocates
    /// nothing here.
    mutating func checkpoint(_ counts: [Site: Int]) -> [Growing] {
        checkpoints += 1
        let now = checkpoints
        var live = 0
        var growing: [Growing] = []
        for (site, count) in counts where count > 0 {
            live += 1
            let found: (counts: [Int], isNew: Bool)?
            if let index = history.index(forKey: site) {
                // Through `values[index]`, which changes the history in place (the subscript
                // with a default copies it out and back, and its counts with it).
                found = Self.record(count, at: now, repetitions: repetitions, in: &history.values[index])
            } else {
                var new = History(counts: [], rises: 0, seen: now)
                found = Self.record(count, at: now, repetitions: repetitions, in: &new)
                history[site] = new
            }
            if let found { growing.append(Growing(site: site, counts: found.counts, isNew: found.isNew)) }
        }
        // Sites not counted now have nothing live: forgotten, so that only live ones are kept.
        if history.count > live { history = history.filter { $0.value.seen == now } }
        return growing.sorted { $0.site < $1.site }
    }

    /// Adds one count to a site's history; its counts and whether it is new when it grows.
    private static func record(
        _ count: Int, at now: Int, repetitions: Int, in site: inout History
    ) -> (counts: [Int], isNew: Bool)? {
        let rose = count > (site.counts.last ?? 0)
        let wasGrowing = site.rises == repetitions
        if site.counts.count == repetitions { site.counts.removeFirst() }
        site.counts.append(count)
        site.rises = rose ? min(site.rises + 1, repetitions) : 0
        site.seen = now
        guard site.rises == repetitions else { return nil }
        return (site.counts, !wasGrowing)
    }

    /// How many sites the tracker follows: those live at the last checkpoint.
    var count: Int { history.count }
}
