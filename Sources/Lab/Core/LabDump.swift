import Tether

/// The final state a headless run prints with `--dump json` — the contract of the design:
/// `orientation`, `stack` (screen ids, bottom first), `mode`, `counters` and `leaks`.
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

        public init(viewModels: Int, subscriptions: Int, tasks: Int, observers: Int, leaks: Int, zombies: Int)
        {
            self.viewModels = viewModels
            self.subscriptions = subscriptions
            self.tasks = tasks
            self.observers = observers
            self.leaks = leaks
            self.zombies = zombies
        }

        public init(_ counters: LedgerSnapshot.Counters) {
            self.init(
                viewModels: counters.owners, subscriptions: counters.subscriptions, tasks: counters.tasks,
                observers: counters.observers + counters.bindings, leaks: counters.leaks,
                zombies: counters.zombies)
        }
    }

    public struct Leak: Codable, Equatable, Sendable {
        /// `OrientationViewModel#1`.
        public var owner: String
        /// `task`, `subscription`, `observer`, `binding`, or `owner` when only the object survives.
        public var kind: String
        /// `File.swift:LINE`.
        public var site: String

        public init(owner: String, kind: String, site: String) {
            self.owner = owner
            self.kind = kind
            self.site = site
        }

        public init(_ leak: LedgerSnapshot.Leak) {
            self.init(owner: leak.owner.description, kind: leak.kindName, site: leak.site.description)
        }
    }

    public var orientation: String
    public var stack: [String]
    public var mode: String
    public var counters: Counters
    public var leaks: [Leak]

    public init(orientation: String, stack: [String], mode: String, counters: Counters, leaks: [Leak]) {
        self.orientation = orientation
        self.stack = stack
        self.mode = mode
        self.counters = counters
        self.leaks = leaks
    }
}
