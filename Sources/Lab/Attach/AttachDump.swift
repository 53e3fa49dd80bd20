import TetherInspector

/// What `tether-lab attach PATH --dump json` prints: one snapshot of the process at PATH —
/// `process`, `pid`, `counters` (integers, as the protocol names them), `owners` with their
/// entries, `leaks` with their signatures, and `growth`: the sites growing now. Call sites are
/// `File.swift:LINE`, as the lab's own dump prints them.
///
/// Decoded by whoever reads attach's output; made by ``init(hello:snapshot:)``. A plain value:
/// `Sendable`.
public struct AttachDump: Codable, Equatable, Sendable {
    public struct Entry: Codable, Equatable, Sendable {
        /// `subscription`, `task`, `observer` or `binding`.
        public var kind: String
        public var site: String
        /// Absent where the ledger could not count them (a subscription handed over with
        /// `store(in:)`), never a false 0.
        public var deliveries: Int?
    }

    public struct Owner: Codable, Equatable, Sendable {
        /// `Type#serial`.
        public var id: String
        public var site: String
        /// `alive`, `ended` or `leaked`.
        public var state: String
        public var entries: [Entry]
    }

    public struct Leak: Codable, Equatable, Sendable {
        public var owner: String
        /// The kind of the binding that kept the owner, or `owner` when only the object survives.
        public var kind: String
        public var site: String
        /// The grouping signature; absent from a server that predates leak reports.
        public var signature: String?
    }

    public struct Growth: Codable, Equatable, Sendable {
        /// The owner that never ended (`AppSession#1`).
        public var owner: String
        public var kind: String
        public var site: String
        /// How many entries at the site are live.
        public var live: Int
        /// The grouping signature: the owner's type, the kind and the site.
        public var signature: String
        /// The scope whose repetitions the site grew in (`default` from a server that predates scopes).
        public var scope: String?
    }

    public var process: String
    public var pid: Int32
    public var counters: InspectorSnapshot.Counters
    public var owners: [Owner]
    public var leaks: [Leak]
    /// Empty from a server that predates growth.
    public var growth: [Growth]

    public init(hello: InspectorHello, snapshot: InspectorSnapshot) {
        process = hello.process
        pid = hello.pid
        counters = snapshot.counters
        owners = snapshot.owners.map { owner in
            Owner(
                id: owner.id.description, site: owner.site.description, state: owner.state.rawValue,
                entries: owner.entries.map {
                    Entry(kind: $0.kind.rawValue, site: $0.site.description, deliveries: $0.deliveries)
                })
        }
        leaks = snapshot.leaks.map {
            Leak(
                owner: $0.owner.description, kind: $0.kindName, site: $0.site.description,
                signature: $0.signature)
        }
        growth = snapshot.growth.map {
            Growth(
                owner: $0.owner.description, kind: $0.kind.rawValue, site: $0.site.description, live: $0.live,
                signature: $0.signature, scope: $0.scope)
        }
    }
}
