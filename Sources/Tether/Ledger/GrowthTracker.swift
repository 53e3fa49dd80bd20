/// Which sites grow across the repetitions of one scope: the pure state machine behind
/// ``Ledger/checkpoint(scope:)``, driven by what each checkpoint observed.
///
/// A *site* is anything counted (the ledger's: one owner, one call site, one kind of entry). A
/// checkpoint ends one *repetition*, the one that began at the checkpoint before it, whatever that
/// one's scope. A site *rose* in a repetition when it holds more live entries than when the
/// repetition began ( ``Observation/rose`` ). A site that rose in each of its scope's last
/// `repetitions` repetitions is *growing*; it stops at the first repetition of its scope in which
/// it did not rise, and a later run of rises is a new *episode*. Repetitions of other scopes
/// neither count nor interrupt: each scope has a tracker of its own. The tracker keeps only the
/// sites whose rises are running.
struct GrowthTracker<Site: Hashable & Comparable> {
    /// What one checkpoint saw of a site.
    struct Observation: Equatable {
        /// Its live entries now.
        var live: Int
        /// Its live entries when the repetition began: at the checkpoint before, of any scope.
        var before: Int

        /// Whether the site rose in the repetition.
        var rose: Bool { live > before }
    }

    /// One checkpoint's verdict on a growing site.
    struct Growing: Equatable {
        let site: Site
        /// The live counts at the last `repetitions` checkpoints of the scope, oldest first.
        let counts: [Int]
        /// Whether the site started growing at this checkpoint: a new episode.
        let isNew: Bool
    }

    private struct History {
        /// The live counts at the last `repetitions` checkpoints at most, oldest first.
        var counts: [Int]
        /// Rises in a row up to the last checkpoint, at most `repetitions`.
        var rises: Int
        /// The last checkpoint the site rose at.
        var rose: Int
    }

    /// How many rises in a row make a site growing; at least 1.
    let repetitions: Int
    private var history: [Site: History] = [:]
    private var checkpoints = 0

    init(repetitions: Int) { self.repetitions = max(1, repetitions) }

    /// Records one checkpoint of the scope: what it saw of each site (a site left out did not
    /// rise). Returns the sites growing now, in order; a site that was already growing is not new.
    ///
    /// Each running site's history is changed in place: a checkpoint over sites it knows
    /// allocates nothing here.
    mutating func checkpoint(_ observations: some Sequence<(Site, Observation)>) -> [Growing] {
        checkpoints += 1
        let now = checkpoints
        var rising = 0
        var growing: [Growing] = []
        for (site, observation) in observations where observation.rose {
            rising += 1
            let found: (counts: [Int], isNew: Bool)?
            if let index = history.index(forKey: site) {
                // Through `values[index]`, which changes the history in place (the subscript
                // with a default copies it out and back, and its counts with it).
                found = Self.rise(
                    to: observation.live, at: now, repetitions: repetitions, in: &history.values[index])
            } else {
                var new = History(counts: [], rises: 0, rose: now)
                found = Self.rise(to: observation.live, at: now, repetitions: repetitions, in: &new)
                history[site] = new
            }
            if let found { growing.append(Growing(site: site, counts: found.counts, isNew: found.isNew)) }
        }
        // A site that did not rise now starts over: forgotten, so that only running ones are kept.
        if history.count > rising { history = history.filter { $0.value.rose == now } }
        return growing.sorted { $0.site < $1.site }
    }

    /// Adds one rise to a site's history; its counts and whether it is new when it grows.
    private static func rise(
        to count: Int, at now: Int, repetitions: Int, in site: inout History
    ) -> (counts: [Int], isNew: Bool)? {
        let wasGrowing = site.rises == repetitions
        if site.counts.count == repetitions { site.counts.removeFirst() }
        site.counts.append(count)
        site.rises = min(site.rises + 1, repetitions)
        site.rose = now
        guard site.rises == repetitions else { return nil }
        return (site.counts, !wasGrowing)
    }

    /// How many sites the tracker follows: those whose rises are running.
    var count: Int { history.count }
}
