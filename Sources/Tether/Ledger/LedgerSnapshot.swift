/// A consistent picture of a ledger at one instant: what a UI renders and a test asserts.
public struct LedgerSnapshot: Sendable {
    /// Live counts. Decoding reads a counter that is missing as 0, so a reader of an older or
    /// newer writer's counters still decodes them, and rejects one outside
    /// 0...``largestCount``, so that sums of counters read from elsewhere cannot overflow.
    public struct Counters: Sendable, Equatable, Codable {
        /// The largest count decoding accepts: the largest integer JSON carries exactly, 2^53 − 1.
        public static let largestCount = (1 << 53) - 1

        /// Owners whose object is still alive.
        public var owners = 0
        public var subscriptions = 0
        public var tasks = 0
        public var observers = 0
        public var bindings = 0
        /// Entries paused by their lifecycle (included in the counts above).
        public var paused = 0
        /// Owners found alive, or with something of theirs alive, after their end plus the grace
        /// period.
        public var leaks = 0
        /// Owners on their way out: ended, but the object or something it owned is not gone yet,
        /// and no leak is reported for them — the snapshot's owners in state
        /// ``LedgerSnapshot/Owner/State-swift.enum/ended``. In a program that lets go of what it
        /// ends, each leaves within moments; one still here when the grace period passes leaks.
        public var ending = 0
        /// Values delivered to entries whose owner had ended, since the ledger was made.
        public var zombies = 0
        /// Sites growing now: ``LedgerSnapshot/growth``'s count (see ``Ledger/checkpoint(scope:)``).
        public var growing = 0

        public init() {}

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            func count(_ key: CodingKeys) throws -> Int {
                let count = try container.decodeIfPresent(Int.self, forKey: key) ?? 0
                guard (0...Self.largestCount).contains(count) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: container, debugDescription: "not a count: \(count)")
                }
                return count
            }
            owners = try count(.owners)
            subscriptions = try count(.subscriptions)
            tasks = try count(.tasks)
            observers = try count(.observers)
            bindings = try count(.bindings)
            paused = try count(.paused)
            leaks = try count(.leaks)
            ending = try count(.ending)
            zombies = try count(.zombies)
            growing = try count(.growing)
        }

        /// Every live entry, of all kinds.
        public var entries: Int { subscriptions + tasks + observers + bindings }

        /// The count for one kind of entry.
        public subscript(kind: EntryKind) -> Int {
            get {
                switch kind {
                case .subscription: subscriptions
                case .task: tasks
                case .observer: observers
                case .binding: bindings
                }
            }
            set {
                switch kind {
                case .subscription: subscriptions = newValue
                case .task: tasks = newValue
                case .observer: observers = newValue
                case .binding: bindings = newValue
                }
            }
        }
    }

    /// One live entry.
    public struct Entry: Sendable, Equatable {
        public enum State: String, Sendable { case active, paused }
        public let kind: EntryKind
        public let owner: OwnerID?
        public let site: CallSite
        public let age: Duration
        /// Values it delivered so far; nil when Tether cannot count them: a subscription handed
        /// over with `store(in:)` delivers out of its sight (bind with `sink(boundTo:)` to count),
        /// and a task counts only what reaches it through Tether.
        public let deliveries: Int?
        public let state: State
        /// Whether the owner's lifetime holds it (it ends with the owner) or it is only attributed.
        public let bound: Bool
    }

    /// One owner with its live entries.
    public struct Owner: Sendable, Equatable {
        public enum State: String, Sendable { case alive, ended, leaked }
        public let id: OwnerID
        public let site: CallSite
        public let state: State
        public let age: Duration
        public let entries: [Entry]
    }

    /// A leak: its report, and the binding it is named by.
    public struct Leak: Sendable, Equatable {
        /// The owner, when it ended, and everything of it that survived the verdict, with what
        /// each has delivered by the snapshot (a leak handler's report counts to the verdict).
        public let report: LeakReport
        /// The owners below this one that leak with it, in the order they were judged: their
        /// leaks are not reported on their own while this one's covers them.
        public let covered: [OwnerID]

        init(_ report: LeakReport, covered: [OwnerID] = []) {
            self.report = report
            self.covered = covered
        }

        public var owner: OwnerID { report.owner }
        /// The kind of the binding the leak is named by (``LeakReport/culprit``), or nil when only
        /// the owner object survives.
        public var kind: EntryKind? { report.culprit?.kind }
        /// That binding's call site, or where the owner was tracked.
        public var site: CallSite { report.culprit?.site ?? report.ownerSite }
        /// `kind` as text: the entry kind, or `owner`.
        public var kindName: String { kind?.rawValue ?? "owner" }
        public var signature: String { report.signature }
    }

    /// Leaks of one shape: the same ``LeakReport/signature``.
    public struct LeakGroup: Sendable, Equatable {
        public let signature: String
        /// The group's leaks, in the order they were found.
        public let leaks: [Leak]
        public var count: Int { leaks.count }
    }

    /// When the snapshot was taken, on the ledger's clock.
    public let time: Duration
    public let counters: Counters
    /// Owners that are alive or not yet settled after their end, oldest first.
    public let owners: [Owner]
    /// Live entries with no owner, oldest first.
    public let unowned: [Entry]
    /// Current leaks, in the order they were found.
    public let leaks: [Leak]
    /// The sites growing at their scope's last ``Ledger/checkpoint(scope:)`` whose owner is still
    /// alive, by owner (oldest first), site and scope. Empty in a program that never checkpoints.
    public let growth: [GrowthReport]
    /// The event log, oldest first.
    public let events: [LedgerEvent]

    /// The leaks grouped by signature, in the order each group's first leak was found.
    public var leakGroups: [LeakGroup] {
        var order: [String] = []
        var groups: [String: [Leak]] = [:]
        for leak in leaks {
            if groups[leak.signature] == nil { order.append(leak.signature) }
            groups[leak.signature, default: []].append(leak)
        }
        return order.map { LeakGroup(signature: $0, leaks: groups[$0] ?? []) }
    }
}

extension LedgerState {
    func snapshot(at now: Duration) -> LedgerSnapshot {
        let owners = owners.values.sorted { $0.record.key < $1.record.key }.map { snapshotOwner($0, at: now) }
        let leaks = self.leaks.inOrder.map { owner, leak in
            snapshotLeak(of: owner, leak.report, survivors: leak.survivors)
        }
        return LedgerSnapshot(
            time: now, counters: countersNow, owners: owners,
            unowned: snapshotEntries(unowned.values, at: now),
            leaks: leaks, growth: growingNow, events: log.ordered(sites: sites, names: ownerNames))
    }

    /// `books`' entries as a snapshot lists them, oldest first.
    func snapshotEntries(_ books: some Collection<EntryBook>, at now: Duration) -> [LedgerSnapshot.Entry] {
        books.sorted { $0.entry.key < $1.entry.key }.map { book in
            let entry = book.entry
            return LedgerSnapshot.Entry(
                kind: entry.kind, owner: entry.owner.map(id(of:)), site: sites[entry.siteIndex],
                age: now - entry.created, deliveries: entry.deliveryCount,
                state: entry.isPaused ? .paused : .active, bound: entry.bound)
        }
    }

    /// An owner as a snapshot lists it, with its entries.
    func snapshotOwner(_ book: OwnerBook, at now: Duration) -> LedgerSnapshot.Owner {
        LedgerSnapshot.Owner(
            id: id(of: book.record), site: sites[book.record.siteIndex],
            state: Self.snapshotState(of: book.state),
            age: now - book.record.created, entries: snapshotEntries(book.entries.values, at: now))
    }

    /// `owner`'s leak as a snapshot lists it: its report counted to now, and the owners it covers.
    func snapshotLeak(of owner: OwnerHandle, _ report: LeakReport, survivors: [UInt64]) -> LedgerSnapshot.Leak
    {
        LedgerSnapshot.Leak(
            current(report, survivors: survivors, of: owner), covered: coveredOwners(by: owner.key))
    }

    /// `owner`'s leak `report` with what its survivors (entries `keys`) still alive have
    /// delivered by now: zombie deliveries go on after the verdict. The survivors are the
    /// verdict's.
    private func current(
        _ report: LeakReport, survivors keys: [UInt64], of owner: OwnerHandle
    ) -> LeakReport {
        guard let book = owners[owner] else { return report }
        let survivors = zip(report.survivors, keys).map { atVerdict, entry in
            book.entries.book(key: entry).map(survivor) ?? atVerdict
        }
        return report.counted(survivors)
    }

    /// The owners whose leaks the leak of `key` covers, and theirs, in the order they were judged.
    private func coveredOwners(by key: UInt64) -> [OwnerID] {
        leaks.covered(by: key).flatMap { child -> [OwnerID] in
            guard let book = owners[child], book.state.phase == .covered(by: key) else { return [] }
            return [id(of: book.record)] + coveredOwners(by: child.key)
        }
    }

    /// An owner whose leak an ancestor's covers shows as ended, on its way out with it.
    static func snapshotState(of state: OwnerState) -> LedgerSnapshot.Owner.State {
        switch state.phase {
        case .alive: .alive
        case .ending, .covered, .settled: .ended
        case .leaked: .leaked
        }
    }
}
