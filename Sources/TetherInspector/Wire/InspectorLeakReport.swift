import Tether

/// A `LeakReport` as the inspector protocol carries it: the owner, where it was tracked, when it
/// ended and when the leak was found, each binding that survived, the signature that groups leaks
/// of the same shape, and the trace to read.
///
/// A server sends one as a `leak` message when the ledger finds the leak, and every snapshot's
/// leak carries its report (see <doc:InspectorProtocol>). Call sites travel as text and the trace
/// as the serving ledger wrote it, so a reader in another process shows the same report.
///
/// ```swift
/// let report = InspectorLeakReport(leakReport)     // from ledger.onLeak { leakReport in … }
/// print(report.trace)
/// ```
///
/// A value: `Sendable`, safe to hand to any thread or actor.
public struct InspectorLeakReport: Sendable, Equatable {
    /// A binding of the owner still alive when the leak was found.
    public struct Survivor: Sendable, Equatable {
        public var kind: EntryKind
        /// Where the binding was made.
        public var site: InspectorSnapshot.Site
        /// Values it delivered in all; nil where the ledger could not count them (absent on the
        /// wire).
        public var deliveries: Int?
        /// Values it delivered after its owner's end: zombie deliveries. Nil when not counted.
        public var deliveriesAfterEnd: Int?
        /// Whether the owner's lifetime held it (it ignored its cancellation) or it was only
        /// attributed to the owner.
        public var bound: Bool

        public init(
            kind: EntryKind, site: InspectorSnapshot.Site, deliveries: Int? = 0, deliveriesAfterEnd: Int? = 0,
            bound: Bool = false
        ) {
            self.kind = kind
            self.site = site
            self.deliveries = deliveries
            self.deliveriesAfterEnd = deliveriesAfterEnd
            self.bound = bound
        }

        public init(_ survivor: LeakReport.Survivor) {
            self.init(
                kind: survivor.kind, site: InspectorSnapshot.Site(survivor.site),
                deliveries: survivor.deliveries,
                deliveriesAfterEnd: survivor.deliveriesAfterEnd, bound: survivor.bound)
        }
    }

    /// The owner that outlived its end.
    public var owner: OwnerID
    /// Where the owner was tracked.
    public var ownerSite: InspectorSnapshot.Site
    /// When the owner's lifetime ended, on the serving ledger's clock.
    public var endedAt: Duration
    /// When the leak was found, on the serving ledger's clock.
    public var foundAt: Duration
    /// The bindings still alive when the leak was found, oldest first; empty when the owner
    /// object itself is what outlived its end.
    public var survivors: [Survivor]
    /// `LeakReport.signature`: equal for leaks of the same shape, across instances and processes.
    public var signature: String
    /// `LeakReport.description`: the multi-line trace, with a fix for each survivor.
    public var trace: String

    public init(
        owner: OwnerID, ownerSite: InspectorSnapshot.Site, endedAt: Duration = .zero,
        foundAt: Duration = .zero,
        survivors: [Survivor] = [], signature: String, trace: String
    ) {
        self.owner = owner
        self.ownerSite = ownerSite
        self.endedAt = endedAt.roundedToMicroseconds
        self.foundAt = foundAt.roundedToMicroseconds
        self.survivors = survivors
        self.signature = signature
        self.trace = trace
    }

    /// The wire's form of `report`.
    public init(_ report: LeakReport) {
        self.init(
            owner: report.owner, ownerSite: InspectorSnapshot.Site(report.ownerSite), endedAt: report.endedAt,
            foundAt: report.foundAt, survivors: report.survivors.map(Survivor.init),
            signature: report.signature, trace: report.description)
    }

    /// The trace's first line: who leaked, how long after its end, where it was tracked.
    public var headline: String {
        trace.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? "\(owner) leaked"
    }

    /// The binding the leak is named by: the first its lifetime could not end, else the oldest;
    /// nil when only the owner object survives (as `LeakReport.culprit`).
    public var culprit: Survivor? { survivors.first { $0.bound } ?? survivors.first }
}

extension InspectorLeakReport.Survivor: Codable {
    private enum Keys: String, CodingKey { case kind, site, deliveries, deliveriesAfterEnd, bound }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(
            kind: try c.decode(EntryKind.self, forKey: .kind),
            site: try c.decode(InspectorSnapshot.Site.self, forKey: .site),
            deliveries: try c.decodeCountIfPresent(forKey: .deliveries),
            deliveriesAfterEnd: try c.decodeCountIfPresent(forKey: .deliveriesAfterEnd),
            bound: try c.decode(Bool.self, forKey: .bound))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(site, forKey: .site)
        try c.encodeIfPresent(deliveries, forKey: .deliveries)
        try c.encodeIfPresent(deliveriesAfterEnd, forKey: .deliveriesAfterEnd)
        try c.encode(bound, forKey: .bound)
    }
}

extension InspectorLeakReport: Codable {
    private enum Keys: String, CodingKey {
        case owner, ownerSite, endedAt, foundAt, survivors, signature, trace
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(
            owner: try c.decodeOwner(forKey: .owner),
            ownerSite: try c.decode(InspectorSnapshot.Site.self, forKey: .ownerSite),
            endedAt: try c.decodeDuration(forKey: .endedAt), foundAt: try c.decodeDuration(forKey: .foundAt),
            survivors: try c.decode([Survivor].self, forKey: .survivors),
            signature: try c.decode(String.self, forKey: .signature),
            trace: try c.decode(String.self, forKey: .trace))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(owner.description, forKey: .owner)
        try c.encode(ownerSite, forKey: .ownerSite)
        try c.encode(endedAt.wireSeconds, forKey: .endedAt)
        try c.encode(foundAt.wireSeconds, forKey: .foundAt)
        try c.encode(survivors, forKey: .survivors)
        try c.encode(signature, forKey: .signature)
        try c.encode(trace, forKey: .trace)
    }
}
