/// What one repetition saw of a site — one owner, one call site, one kind of entry — and whether
/// the site *rose* in it: the rule behind ``Ledger/checkpoint(scope:)``, pure.
///
/// A site rose in a repetition when
/// - its *floor* held: the fewest entries it had at once during the repetition is what it had
///   when the repetition began — nothing that was there went, as a leak's entries never go; and
/// - it ends the repetition holding more than it ever held at once before it.
///
/// A leak raises the floor and passes every count it had: one more each time, none gone. A busy
/// owner's entries come and go — its floor falls as they end — and its count is bounded, so it
/// stops passing its own peak once it has reached it: neither is growth, however its count moves
/// between two checkpoints.
struct GrowthObservation: Equatable {
    /// Its live entries when the repetition began.
    var start: Int
    /// The fewest it held at once during the repetition, `start` included.
    var floor: Int
    /// Its live entries now.
    var live: Int
    /// The most it held at once before the repetition.
    var peakBefore: Int

    var rose: Bool { floor >= start && live > peakBefore }
}

/// A site's run of rises in one scope: how many of the scope's repetitions in a row it rose in,
/// and its counts then. A site that rose in each of the scope's last `repetitions` repetitions is
/// *growing*; it stops at the first repetition of its scope in which it did not rise, and a later
/// run is a new *episode*. Repetitions of other scopes neither count nor interrupt.
struct GrowthRun {
    /// The scope's id (``LedgerGrowth/Scope/id``).
    let scope: Int
    /// Rises in a row, at most `repetitions`.
    private(set) var rises = 0
    /// The scope's ordinal (how many checkpoints of it had been taken) at the last rise.
    private(set) var lastRise = 0
    /// The count at the oldest rise kept, then those after it (allocated from the second rise on).
    private var oldest = 0
    private var later: [Int] = []

    init(scope: Int) { self.scope = scope }

    /// The counts at the rises kept, oldest first.
    var counts: [Int] { rises == 0 ? [] : [oldest] + later }

    /// One rise, to `count`, at the scope's checkpoint `ordinal`. The counts and whether the
    /// episode starts now, when the site grows.
    mutating func rise(to count: Int, at ordinal: Int, repetitions: Int) -> (counts: [Int], isNew: Bool)? {
        if lastRise != ordinal - 1 { rises = 0 }  // the scope's last repetition broke the run
        let wasGrowing = rises >= repetitions
        if rises == 0 {
            oldest = count
            later.removeAll()
        } else if rises == repetitions {
            if later.isEmpty {
                oldest = count
            } else {
                oldest = later.removeFirst()
                later.append(count)
            }
        } else {
            later.append(count)
        }
        rises = min(rises + 1, repetitions)
        lastRise = ordinal
        guard rises == repetitions else { return nil }
        return (counts, !wasGrowing)
    }

    /// Whether the run goes on: it rose at its scope's last checkpoint.
    func isRunning(atOrdinal ordinal: Int?) -> Bool { ordinal == lastRise && rises > 0 }
}

/// A site's runs, the first inline: most sites rise in one scope at a time, if any.
struct GrowthRuns {
    private var first: GrowthRun?
    private var rest: [GrowthRun] = []

    /// One rise in `scope`, at its checkpoint `ordinal`; runs of other scopes that stopped
    /// (`ordinals` names each scope's last checkpoint, nil for a scope forgotten) are dropped.
    mutating func rise(
        in scope: Int, at ordinal: Int, to count: Int, repetitions: Int, ordinals: [Int: Int]
    ) -> (counts: [Int], isNew: Bool)? {
        let stopped = { (run: GrowthRun) in
            run.scope != scope && !run.isRunning(atOrdinal: ordinals[run.scope])
        }
        if let run = first, stopped(run) || rest.contains(where: stopped) {
            let kept = ([run] + rest).filter { !stopped($0) }
            first = kept.first
            rest = Array(kept.dropFirst())
        }
        if first == nil { first = GrowthRun(scope: scope) }
        if first!.scope == scope { return first!.rise(to: count, at: ordinal, repetitions: repetitions) }
        if let index = rest.firstIndex(where: { $0.scope == scope }) {
            return rest[index].rise(to: count, at: ordinal, repetitions: repetitions)
        }
        var run = GrowthRun(scope: scope)
        let found = run.rise(to: count, at: ordinal, repetitions: repetitions)
        rest.append(run)
        return found
    }
}
