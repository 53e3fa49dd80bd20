import Tether

/// A `GrowthReport` as the inspector protocol carries it: the owner that never ended, where it
/// was tracked, the kind and call site of the entries that grow, their live counts at the last
/// checkpoints of the scope they grew in, the signature that groups growth of the same shape,
/// and the trace to read.
///
/// Every snapshot lists the sites growing now in its `growth` field (see <doc:InspectorProtocol>);
/// a reader that predates growth ignores the field, and a snapshot without it has none. A report
/// without a `scope` (from a server that predates scopes) grew in the default one. Call
/// sites travel as text and the trace as the serving ledger wrote it, so a reader in another
/// process shows the same report.
///
/// ```swift
/// let report = InspectorGrowthReport(growthReport)     // from ledger.onGrowth { growthReport in … }
/// print(report.trace)
/// ```
///
/// A value: `Sendable`, safe to hand to any thread or actor.
public struct InspectorGrowthReport: Sendable, Equatable {
    /// The owner whose entries grow; alive when the snapshot was taken.
    public var owner: OwnerID
    /// Where the owner was tracked.
    public var ownerSite: InspectorSnapshot.Site
    /// The kind of the growing entries.
    public var kind: EntryKind
    /// Where the growing entries are made.
    public var site: InspectorSnapshot.Site
    /// The live entries at the site at the last checkpoints, oldest first.
    public var counts: [Int]
    /// The live entries at the site at the last checkpoint.
    public var live: Int
    /// The scope whose repetitions the site grew in: `GrowthReport.scope`.
    public var scope: String
    /// `GrowthReport.signature`: the owner's type, the kind and the site, no serials.
    public var signature: String
    /// `GrowthReport.description`: the multi-line trace, with a fix.
    public var trace: String

    public init(
        owner: OwnerID, ownerSite: InspectorSnapshot.Site, kind: EntryKind, site: InspectorSnapshot.Site,
        counts: [Int], live: Int, scope: String = GrowthReport.defaultScope, signature: String, trace: String
    ) {
        self.owner = owner
        self.ownerSite = ownerSite
        self.kind = kind
        self.site = site
        self.counts = counts
        self.live = live
        self.scope = scope
        self.signature = signature
        self.trace = trace
    }

    /// The wire's form of `report`.
    public init(_ report: GrowthReport) {
        self.init(
            owner: report.owner, ownerSite: InspectorSnapshot.Site(report.ownerSite), kind: report.kind,
            site: InspectorSnapshot.Site(report.site), counts: report.counts, live: report.live,
            scope: report.scope, signature: report.signature, trace: report.description)
    }

    /// The trace's first line: who grows, what, where, how fast.
    public var headline: String {
        trace.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? "\(owner) grows"
    }

    /// How many entries each repetition adds, on average over the counts (rounded up, so a slow
    /// growth never reads as 0); nil when one count says nothing of the pace.
    public var gainPerRepetition: Int? {
        guard let first = counts.first, let last = counts.last, counts.count > 1 else { return nil }
        let steps = counts.count - 1
        return (last - first + steps - 1) / steps
    }
}

extension InspectorGrowthReport: Codable {
    private enum Keys: String, CodingKey {
        case owner, ownerSite, kind, site, counts, live, scope, signature, trace
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(
            owner: try c.decodeOwner(forKey: .owner),
            ownerSite: try c.decode(InspectorSnapshot.Site.self, forKey: .ownerSite),
            kind: try c.decode(EntryKind.self, forKey: .kind),
            site: try c.decode(InspectorSnapshot.Site.self, forKey: .site),
            counts: try c.decodeCounts(forKey: .counts), live: try c.decodeCount(forKey: .live),
            scope: try c.decodeIfPresent(String.self, forKey: .scope) ?? GrowthReport.defaultScope,
            signature: try c.decode(String.self, forKey: .signature),
            trace: try c.decode(String.self, forKey: .trace))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(owner.description, forKey: .owner)
        try c.encode(ownerSite, forKey: .ownerSite)
        try c.encode(kind, forKey: .kind)
        try c.encode(site, forKey: .site)
        try c.encode(counts, forKey: .counts)
        try c.encode(live, forKey: .live)
        try c.encode(scope, forKey: .scope)
        try c.encode(signature, forKey: .signature)
        try c.encode(trace, forKey: .trace)
    }
}
