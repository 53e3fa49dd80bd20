/// The live entries of one owner at one call site and kind, kept as they open and close, with
/// what growth needs of the repetition under way: a checkpoint reads these instead of walking the
/// entries.
///
/// A *window* is the time between two checkpoints of the ledger (of any scope), named by the
/// number of checkpoints taken before it. The window's fields are reset lazily, at the site's
/// first change in a new window: a site nobody touched since the last checkpoint costs nothing.
struct SiteCount {
    let site: UInt32
    let kind: EntryKind
    /// Its live entries now.
    private(set) var live: Int32 = 0
    /// The most it ever held at once.
    private(set) var peak: Int32 = 0
    /// At the start of ``window``: its live entries, and its peak.
    private(set) var start: Int32 = 0
    private(set) var peakBefore: Int32 = 0
    /// The fewest it held at once in ``window``, its start included.
    private(set) var floor: Int32 = 0
    /// The window the fields above describe.
    private(set) var window: Int
    /// Its runs of rises, by scope.
    var runs = GrowthRuns()

    /// A site first seen in `window`: it began the window with nothing.
    init(site: UInt32, kind: EntryKind, window: Int) {
        self.site = site
        self.kind = kind
        self.window = window
    }

    /// Opens (`delta` 1) or closes (-1) one entry in `window`. True at the site's first change in
    /// the window.
    mutating func change(by delta: Int32, in window: Int) -> Bool {
        let first = window != self.window
        if first {
            self.window = window
            start = live
            floor = live
            peakBefore = peak
        }
        live += delta
        if live > peak { peak = live }
        if live < floor { floor = live }
        return first
    }

    /// What `window` saw of the site up to now: nothing moved if it was not touched in it.
    func observation(in window: Int) -> GrowthObservation {
        guard window == self.window else {
            return GrowthObservation(
                start: Int(live), floor: Int(live), live: Int(live), peakBefore: Int(peak))
        }
        return GrowthObservation(
            start: Int(start), floor: Int(floor), live: Int(live), peakBefore: Int(peakBefore))
    }
}

/// The ``SiteCount``s of one owner, the first inline (most owners bind at one or a few sites), as
/// ``EntryBooks`` keeps its entries.
struct SiteCounts {
    private var first: SiteCount?
    private var rest: [SiteCount] = []

    /// Opens (`delta` 1) or closes (-1) one entry of `kind` at `site` in `window`. True at the
    /// site's first change in the window, its first ever among them.
    mutating func change(site: UInt32, kind: EntryKind, by delta: Int32, in window: Int) -> Bool {
        if let isFirst = withCount(site: site, kind: kind, { $0.change(by: delta, in: window) }) {
            return isFirst
        }
        var new = SiteCount(site: site, kind: kind, window: window)
        _ = new.change(by: delta, in: window)
        if first == nil { first = new } else { rest.append(new) }
        return true
    }

    /// Changes the count of `kind` at `site` in place, if the owner has one.
    mutating func withCount<Result>(
        site: UInt32, kind: EntryKind, _ body: (inout SiteCount) -> Result
    ) -> Result? {
        if first?.site == site, first?.kind == kind { return body(&first!) }
        guard let index = rest.firstIndex(where: { $0.site == site && $0.kind == kind }) else { return nil }
        return body(&rest[index])
    }

    /// Changes every count in place.
    mutating func forEach(_ body: (inout SiteCount) -> Void) {
        if first != nil { body(&first!) }
        for index in rest.indices { body(&rest[index]) }
    }
}
