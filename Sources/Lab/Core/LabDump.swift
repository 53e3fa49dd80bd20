import Tether

/// The final state a headless run prints with `--dump json` — the contract of the design:
/// `orientation`, `stack` (screen ids, bottom first), `mode`, `counters`, `leaks` and `growth`.
///
/// Decoded by whoever reads the lab's output; made only by the lab (its memberwise initializers
/// are internal).
public struct LabDump: Codable, Equatable, Sendable {
    public struct Counters: Codable, Equatable, Sendable {
        /// Live owners (the scenarios' view models).
        public var viewModels: Int
        public var subscriptions: Int
        public var tasks: Int
        /// Observers and two-way bindings.
        public var observers: Int
        public var leaks: Int
        public var zombies: Int
    }

    public struct Leak: Codable, Equatable, Sendable {
        /// `OrientationViewModel#1`.
        public var owner: String
        /// `task`, `subscription`, `observer`, `binding`, or `owner` when only the object survives.
        public var kind: String
        /// `File.swift:LINE`.
        public var site: String
    }

    /// A site growing now: live entries under an owner that never ended, rising in each of the
    /// last repetitions of one scope (the screen stack checkpoints at every dismissal, scoped by
    /// the dismissed screen's id).
    public struct Growth: Codable, Equatable, Sendable {
        /// `AppSession#1`.
        public var owner: String
        /// `subscription`, `task`, `observer` or `binding`.
        public var kind: String
        /// `File.swift:LINE`, where the growing entries are made.
        public var site: String
        /// How many are live.
        public var live: Int
        /// The scope the site grew in: the id of the screen whose visits grew it
        /// (`accumulation`). Absent from dumps that predate scopes.
        public var scope: String?
    }

    public var orientation: String
    public var stack: [String]
    public var mode: String
    public var counters: Counters
    public var leaks: [Leak]
    public var growth: [Growth]
}

extension LabDump.Counters {
    /// The ledger's counters as the dump names them (two-way bindings count as observers).
    init(_ counters: LedgerSnapshot.Counters) {
        self.init(
            viewModels: counters.owners, subscriptions: counters.subscriptions, tasks: counters.tasks,
            observers: counters.observers + counters.bindings, leaks: counters.leaks,
            zombies: counters.zombies)
    }
}

extension LabDump.Leak {
    init(_ leak: LedgerSnapshot.Leak) {
        self.init(owner: leak.owner.description, kind: leak.kindName, site: leak.site.description)
    }
}

extension LabDump.Growth {
    init(_ report: GrowthReport) {
        self.init(
            owner: report.owner.description, kind: report.kind.rawValue, site: report.site.description,
            live: report.live, scope: report.scope)
    }
}
