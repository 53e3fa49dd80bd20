import Tether

/// A ledger's state as an inspector shows it: the same value whether it was taken from a ledger
/// in this process or read from a ``LedgerServer``'s socket.
///
/// Built from a `LedgerSnapshot` with ``init(_:sequence:)``; sent as a `snapshot` line of the
/// inspector protocol (see <doc:InspectorProtocol>). Call sites travel as text (``Site``), owners
/// as their `Type#serial` id, durations in microseconds' precision, so the value survives a round
/// trip through JSON unchanged.
///
/// ```swift
/// let snapshot = InspectorSnapshot(ledger.snapshotRearmingOnChange())
/// for owner in snapshot.owners where owner.state == .leaked { print(owner.id, owner.site) }
/// ```
///
/// A value type: `Sendable`, safe to hand to any thread or actor.
public struct InspectorSnapshot: Sendable, Equatable {
    /// Where in the code something was made, as text: its `#fileID` and its line.
    public struct Site: Sendable, Hashable, CustomStringConvertible {
        /// The `#fileID` of the call: `Module/File.swift`.
        public var fileID: String
        public var line: Int

        public init(fileID: String, line: Int) {
            self.fileID = fileID
            self.line = line
        }

        public init(_ site: CallSite) {
            self.init(fileID: site.fileID.description, line: Int(site.line))
        }

        /// The file's name without its module: `File.swift`.
        public var file: String {
            guard let slash = fileID.lastIndex(of: "/") else { return fileID }
            return String(fileID[fileID.index(after: slash)...])
        }

        /// `File.swift:LINE`, as `CallSite` prints it.
        public var description: String { "\(file):\(line)" }
    }

    /// Live counts: the ledger's own (decoded leniently: a counter a peer does not send reads 0).
    public typealias Counters = LedgerSnapshot.Counters

    /// One live entry: a subscription, task, observer or binding.
    public struct Entry: Sendable, Equatable {
        public var kind: EntryKind
        /// The owner it is recorded under; nil for an entry made outside any owner.
        public var owner: OwnerID?
        public var site: Site
        /// Values it delivered; nil where the ledger could not count them (absent on the wire).
        public var deliveries: Int?
        public var age: Duration
        /// Whether its lifecycle has paused it.
        public var paused: Bool
        /// Whether its owner's lifetime holds it (it ends with the owner) or it is only attributed.
        public var bound: Bool

        public init(
            kind: EntryKind, owner: OwnerID? = nil, site: Site, deliveries: Int? = 0, age: Duration = .zero,
            paused: Bool = false, bound: Bool = true
        ) {
            self.kind = kind
            self.owner = owner
            self.site = site
            self.deliveries = deliveries
            self.age = age.roundedToMicroseconds
            self.paused = paused
            self.bound = bound
        }

        public init(_ entry: LedgerSnapshot.Entry) {
            self.init(
                kind: entry.kind, owner: entry.owner, site: Site(entry.site), deliveries: entry.deliveries,
                age: entry.age, paused: entry.state == .paused, bound: entry.bound)
        }
    }

    /// One owner and its live entries.
    public struct Owner: Sendable, Equatable {
        public var id: OwnerID
        /// Where it started tracking its lifetime.
        public var site: Site
        public var state: LedgerSnapshot.Owner.State
        public var age: Duration
        public var entries: [Entry]

        public init(
            id: OwnerID, site: Site, state: LedgerSnapshot.Owner.State = .alive, age: Duration = .zero,
            entries: [Entry] = []
        ) {
            self.id = id
            self.site = site
            self.state = state
            self.age = age.roundedToMicroseconds
            self.entries = entries
        }

        public init(_ owner: LedgerSnapshot.Owner) {
            self.init(
                id: owner.id, site: Site(owner.site), state: owner.state, age: owner.age,
                entries: owner.entries.map(Entry.init))
        }
    }

    /// An owner that outlived its end, named by the binding that kept it (or by itself).
    public struct Leak: Sendable, Equatable {
        public var owner: OwnerID
        /// The kind of the binding that kept it; nil when only the owner object survived.
        public var kind: EntryKind?
        /// That binding's call site, or where the owner was tracked.
        public var site: Site
        /// When the owner's lifetime ended, on the ledger's clock.
        public var endedAt: Duration
        /// Every binding still alive at the verdict, oldest first.
        public var survivors: [Site]
        /// The leak's stable grouping signature (`LeakReport.signature`); nil from a server that
        /// predates leak reports.
        public var signature: String?
        /// The whole report: each survivor with its deliveries, and the trace. Nil from a server
        /// that predates leak reports.
        public var report: InspectorLeakReport?

        public init(
            owner: OwnerID, kind: EntryKind?, site: Site, endedAt: Duration = .zero, survivors: [Site] = [],
            signature: String? = nil, report: InspectorLeakReport? = nil
        ) {
            self.owner = owner
            self.kind = kind
            self.site = site
            self.endedAt = endedAt.roundedToMicroseconds
            self.survivors = survivors
            self.signature = signature
            self.report = report
        }

        public init(_ leak: LedgerSnapshot.Leak) {
            self.init(
                owner: leak.owner, kind: leak.kind, site: Site(leak.site), endedAt: leak.report.endedAt,
                survivors: leak.report.survivors.map { Site($0.site) }, signature: leak.signature,
                report: InspectorLeakReport(leak.report))
        }

        /// `kind` as text: the entry kind, or `owner`.
        public var kindName: String { kind?.rawValue ?? "owner" }

        /// What the leak is grouped by: its signature, or, from a server that gives none, the
        /// owner's type and the binding the leak is named by.
        public var groupingKey: String {
            signature ?? "\(owner.typeName) ← \(kindName) \(site.fileID):\(site.line)"
        }
    }

    /// Leaks of one shape: the same ``Leak/groupingKey``.
    public struct LeakGroup: Sendable, Equatable {
        /// The signature the group's leaks share.
        public var signature: String
        /// The group's leaks, in the order they were found; never empty.
        public var leaks: [Leak]

        public var count: Int { leaks.count }
    }

    /// One event of the ledger's log.
    public struct Event: Sendable, Equatable {
        /// When, on the ledger's clock.
        public var time: Duration
        public var kind: LedgerEvent.Kind
        public var owner: OwnerID?
        public var entryKind: EntryKind?
        public var site: Site?
        /// Free text, for notes.
        public var message: String?

        public init(
            time: Duration, kind: LedgerEvent.Kind, owner: OwnerID? = nil, entryKind: EntryKind? = nil,
            site: Site? = nil, message: String? = nil
        ) {
            self.time = time.roundedToMicroseconds
            self.kind = kind
            self.owner = owner
            self.entryKind = entryKind
            self.site = site
            self.message = message
        }

        public init(_ event: LedgerEvent) {
            self.init(
                time: event.time, kind: event.kind, owner: event.owner, entryKind: event.entryKind,
                site: event.site.map(Site.init), message: event.message)
        }

        /// One line for a log view, as Tether's `LedgerEvent.summary` prints it.
        public var summary: String {
            LedgerEvent.summary(
                kind: kind, entryKind: entryKind, owner: owner, message: message, site: site?.description)
        }
    }

    /// The serving side's count of snapshots taken, from 1, across its clients: a gap means
    /// snapshots this client did not get (it was slow, or another client joined and got one of
    /// its own). 0 for a snapshot not from a server.
    public var sequence: Int
    /// When the snapshot was taken, on the serving ledger's clock: the x axis of a sparkline.
    public var time: Duration
    public var counters: Counters
    /// Owners that are alive or awaiting a verdict, oldest first.
    public var owners: [Owner]
    /// Live entries with no owner, oldest first.
    public var unowned: [Entry]
    /// Current leaks, in the order they were found.
    public var leaks: [Leak]
    /// The sites growing now, under owners that never ended; empty from a server that predates
    /// growth.
    public var growth: [InspectorGrowthReport]
    /// The event log, oldest first.
    public var events: [Event]

    public init(
        sequence: Int = 0, time: Duration = .zero, counters: Counters = Counters(), owners: [Owner] = [],
        unowned: [Entry] = [], leaks: [Leak] = [], growth: [InspectorGrowthReport] = [], events: [Event] = []
    ) {
        self.sequence = sequence
        self.time = time.roundedToMicroseconds
        self.counters = counters
        self.owners = owners
        self.unowned = unowned
        self.leaks = leaks
        self.growth = growth
        self.events = events
    }

    /// The leaks grouped by ``Leak/groupingKey``, in the order each group's first leak was found
    /// (as `LedgerSnapshot.leakGroups`).
    public var leakGroups: [LeakGroup] {
        var groups: [LeakGroup] = []
        var index: [String: Int] = [:]
        for leak in leaks {
            let key = leak.groupingKey
            if let group = index[key] {
                groups[group].leaks.append(leak)
            } else {
                index[key] = groups.count
                groups.append(LeakGroup(signature: key, leaks: [leak]))
            }
        }
        return groups
    }

    /// The inspector's view of `snapshot`.
    ///
    /// - Parameters:
    ///   - snapshot: A ledger's snapshot.
    ///   - sequence: The server's count of snapshots taken; 0 when not serving.
    public init(_ snapshot: LedgerSnapshot, sequence: Int = 0) {
        self.init(snapshot, sequence: sequence, leaks: Leak.init)
    }

    /// The inspector's view of `snapshot`, each leak converted by `leak`: a reader that keeps
    /// the conversions of earlier snapshots need not write every report out again.
    public init(_ snapshot: LedgerSnapshot, sequence: Int = 0, leaks leak: (LedgerSnapshot.Leak) -> Leak) {
        self.init(
            sequence: sequence, time: snapshot.time, counters: snapshot.counters,
            owners: snapshot.owners.map(Owner.init), unowned: snapshot.unowned.map(Entry.init),
            leaks: snapshot.leaks.map(leak), growth: snapshot.growth.map(InspectorGrowthReport.init),
            events: snapshot.events.map(Event.init))
    }
}

/// Says who serves a ledger: the first line of every connection. A value: `Sendable`.
public struct InspectorHello: Sendable, Equatable {
    /// The protocol version the server speaks (``InspectorMessage/protocolVersion``).
    public var version: Int
    /// The serving process's id.
    public var pid: Int32
    /// The serving process's name.
    public var process: String

    public init(version: Int = InspectorMessage.protocolVersion, pid: Int32, process: String) {
        self.version = version
        self.pid = pid
        self.process = process
    }
}

extension Duration {
    /// The duration to the microsecond: what the wire keeps, so a value equals itself after a
    /// round trip.
    var roundedToMicroseconds: Duration {
        let (seconds, attoseconds) = components
        let micro = (Double(attoseconds) / 1e12).rounded()
        return .seconds(seconds) + .microseconds(Int64(micro))
    }
}
