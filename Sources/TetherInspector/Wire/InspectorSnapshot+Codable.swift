import Tether

// The JSON of the inspector protocol, version 1 (the DocC article InspectorProtocol shows it).
// Written by hand, not synthesized: the names and shapes are the protocol, so a renamed Swift
// property must not change them. Decoding ignores unknown keys; counters missing from a line
// read as 0; an event of a kind this version does not know is skipped. Anything else that does
// not fit is a decoding error, never a trap: durations and numbers are range-checked (a count
// is 0...Counters.largestCount, so that sums of counts cannot overflow).

extension InspectorSnapshot.Site: Codable {
    /// `Module/File.swift:LINE`: the `#fileID` and the line.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let colon = text.lastIndex(of: ":"), let line = Int(text[text.index(after: colon)...]),
            line >= 0
        else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "not a call site: \(text.prefix(80))")
        }
        self.init(fileID: String(text[..<colon]), line: line)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode("\(fileID):\(line)")
    }
}

extension InspectorSnapshot.Entry: Codable {
    private enum Keys: String, CodingKey { case kind, owner, site, deliveries, age, paused, bound }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(
            kind: try c.decode(EntryKind.self, forKey: .kind),
            owner: try c.decodeOwnerIfPresent(forKey: .owner),
            site: try c.decode(InspectorSnapshot.Site.self, forKey: .site),
            deliveries: try c.decodeCountIfPresent(forKey: .deliveries),
            age: try c.decodeDuration(forKey: .age),
            paused: try c.decode(Bool.self, forKey: .paused),
            bound: try c.decode(Bool.self, forKey: .bound))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(kind, forKey: .kind)
        try c.encodeIfPresent(owner?.description, forKey: .owner)
        try c.encode(site, forKey: .site)
        try c.encodeIfPresent(deliveries, forKey: .deliveries)
        try c.encode(age.wireSeconds, forKey: .age)
        try c.encode(paused, forKey: .paused)
        try c.encode(bound, forKey: .bound)
    }
}

extension InspectorSnapshot.Owner: Codable {
    private enum Keys: String, CodingKey { case id, site, state, age, entries }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let stateName = try c.decode(String.self, forKey: .state)
        guard let state = LedgerSnapshot.Owner.State(rawValue: stateName) else {
            throw DecodingError.dataCorruptedError(
                forKey: .state, in: c, debugDescription: "unknown owner state \(stateName.prefix(40))")
        }
        self.init(
            id: try c.decodeOwner(forKey: .id),
            site: try c.decode(InspectorSnapshot.Site.self, forKey: .site),
            state: state, age: try c.decodeDuration(forKey: .age),
            entries: try c.decode([InspectorSnapshot.Entry].self, forKey: .entries))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(id.description, forKey: .id)
        try c.encode(site, forKey: .site)
        try c.encode(state.rawValue, forKey: .state)
        try c.encode(age.wireSeconds, forKey: .age)
        try c.encode(entries, forKey: .entries)
    }
}

extension InspectorSnapshot.Leak: Codable {
    private enum Keys: String, CodingKey { case owner, kind, site, endedAt, survivors, signature, report }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let kindName = try c.decode(String.self, forKey: .kind)
        let kind = EntryKind(rawValue: kindName)
        guard kind != nil || kindName == "owner" else {
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: c, debugDescription: "unknown leak kind \(kindName.prefix(40))")
        }
        self.init(
            owner: try c.decodeOwner(forKey: .owner), kind: kind,
            site: try c.decode(InspectorSnapshot.Site.self, forKey: .site),
            endedAt: try c.decodeDuration(forKey: .endedAt),
            survivors: try c.decode([InspectorSnapshot.Site].self, forKey: .survivors),
            signature: try c.decodeIfPresent(String.self, forKey: .signature),
            report: try c.decodeIfPresent(InspectorLeakReport.self, forKey: .report))
    }

    /// `kind` is the entry kind, or `owner` when only the owner object survived; `report` is the
    /// whole report, as a `leak` message carries it.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(owner.description, forKey: .owner)
        try c.encode(kindName, forKey: .kind)
        try c.encode(site, forKey: .site)
        try c.encode(endedAt.wireSeconds, forKey: .endedAt)
        try c.encode(survivors, forKey: .survivors)
        try c.encodeIfPresent(signature, forKey: .signature)
        try c.encodeIfPresent(report, forKey: .report)
    }
}

extension InspectorSnapshot.Event: Codable {
    fileprivate enum Keys: String, CodingKey { case time, kind, owner, entryKind, site, message }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(
            time: try c.decodeDuration(forKey: .time),
            kind: try c.decode(LedgerEvent.Kind.self, forKey: .kind),
            owner: try c.decodeOwnerIfPresent(forKey: .owner),
            entryKind: try c.decodeIfPresent(EntryKind.self, forKey: .entryKind),
            site: try c.decodeIfPresent(InspectorSnapshot.Site.self, forKey: .site),
            message: try c.decodeIfPresent(String.self, forKey: .message))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(time.wireSeconds, forKey: .time)
        try c.encode(kind, forKey: .kind)
        try c.encodeIfPresent(owner?.description, forKey: .owner)
        try c.encodeIfPresent(entryKind, forKey: .entryKind)
        try c.encodeIfPresent(site, forKey: .site)
        try c.encodeIfPresent(message, forKey: .message)
    }
}

/// An event, or nothing for an event of a kind this version does not know: a newer server may
/// log kinds this reader has no name for, and the rest of its snapshot is still worth showing.
private struct LossyEvent: Decodable {
    var event: InspectorSnapshot.Event?

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: InspectorSnapshot.Event.Keys.self)
        let kind = try c.decode(String.self, forKey: .kind)
        event = LedgerEvent.Kind(rawValue: kind) == nil ? nil : try InspectorSnapshot.Event(from: decoder)
    }
}

extension InspectorSnapshot: Codable {
    private enum Keys: String, CodingKey {
        case sequence, time, counters, owners, unowned, leaks, growth, events
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(
            sequence: try c.decodeIfPresent(Int.self, forKey: .sequence) ?? 0,
            time: try c.decodeDuration(forKey: .time),
            counters: try c.decode(Counters.self, forKey: .counters),
            owners: try c.decode([Owner].self, forKey: .owners),
            unowned: try c.decodeIfPresent([Entry].self, forKey: .unowned) ?? [],
            leaks: try c.decode([Leak].self, forKey: .leaks),
            growth: try c.decodeIfPresent([InspectorGrowthReport].self, forKey: .growth) ?? [],
            events: (try c.decodeIfPresent([LossyEvent].self, forKey: .events) ?? []).compactMap(\.event))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(sequence, forKey: .sequence)
        try c.encode(time.wireSeconds, forKey: .time)
        try c.encode(counters, forKey: .counters)
        try c.encode(owners, forKey: .owners)
        try c.encode(unowned, forKey: .unowned)
        try c.encode(leaks, forKey: .leaks)
        try c.encode(growth, forKey: .growth)
        try c.encode(events, forKey: .events)
    }
}

extension InspectorHello: Codable {
    private enum Keys: String, CodingKey { case version, pid, process }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(
            version: try c.decode(Int.self, forKey: .version), pid: try c.decode(Int32.self, forKey: .pid),
            process: try c.decode(String.self, forKey: .process))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(version, forKey: .version)
        try c.encode(pid, forKey: .pid)
        try c.encode(process, forKey: .process)
    }
}

extension Duration {
    /// Seconds, to the microsecond: how the protocol writes a time or an age.
    var wireSeconds: Double {
        let (seconds, attoseconds) = roundedToMicroseconds.components
        return Double(seconds * 1_000_000 + attoseconds / 1_000_000_000_000) / 1e6
    }

    /// The duration `seconds` stands for, or nil when it is not finite or beyond ±31 years
    /// (where microseconds would lose precision in a `Double`).
    init?(wireSeconds seconds: Double) {
        guard seconds.isFinite, abs(seconds) < 1e9 else { return nil }
        self = .microseconds(Int64((seconds * 1e6).rounded()))
    }
}

extension KeyedDecodingContainer {
    func decodeDuration(forKey key: Key) throws -> Duration {
        let seconds = try decode(Double.self, forKey: key)
        guard let duration = Duration(wireSeconds: seconds) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "not a duration in seconds: \(seconds)")
        }
        return duration
    }

    /// A count: a whole number in 0...``LedgerSnapshot/Counters/largestCount``.
    func decodeCount(forKey key: Key) throws -> Int {
        let count = try decode(Int.self, forKey: key)
        try checkCounts([count], forKey: key)
        return count
    }

    /// A count that is absent (or null) where the peer could not count: nil.
    func decodeCountIfPresent(forKey key: Key) throws -> Int? {
        guard let count = try decodeIfPresent(Int.self, forKey: key) else { return nil }
        try checkCounts([count], forKey: key)
        return count
    }

    /// A list of counts, each as ``decodeCount(forKey:)`` reads one.
    func decodeCounts(forKey key: Key) throws -> [Int] {
        let counts = try decode([Int].self, forKey: key)
        try checkCounts(counts, forKey: key)
        return counts
    }

    private func checkCounts(_ counts: [Int], forKey key: Key) throws {
        if let bad = counts.first(where: { !(0...LedgerSnapshot.Counters.largestCount).contains($0) }) {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "not a count: \(bad)")
        }
    }

    /// An owner's `Type#serial`.
    func decodeOwner(forKey key: Key) throws -> OwnerID {
        let text = try decode(String.self, forKey: key)
        guard let hash = text.lastIndex(of: "#"), let serial = Int(text[text.index(after: hash)...]),
            hash > text.startIndex
        else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "not an owner id (Type#serial): \(text.prefix(80))")
        }
        return OwnerID(typeName: String(text[..<hash]), serial: serial)
    }

    fileprivate func decodeOwnerIfPresent(forKey key: Key) throws -> OwnerID? {
        try !contains(key) || decodeNil(forKey: key) ? nil : decodeOwner(forKey: key)
    }
}
