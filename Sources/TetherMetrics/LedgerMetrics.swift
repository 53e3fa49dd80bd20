import CoreMetrics
import Synchronization
import Tether

/// The metrics a reporter writes, made once from its factory.
///
/// Names and dimensions are fixed: dashboards and alerts depend on them. The only dimension is
/// `kind`, with four values; an owner, a call site or a signature would give a fleet's metrics
/// store a series per object.
///
/// The gauges are swift-metrics `Meter`s, which a backend shows as gauges, moved by increments:
/// each reporter adds its own ledger's numbers, so two ledgers reported to one backend add up
/// instead of overwriting each other, and a reporter that ends takes its numbers back out. The
/// reporters to one backend object share its metrics (``shared(for:)``): a backend that does not
/// implement meters gets swift-metrics' accumulating meter, a total per `Meter` object, and the
/// ledgers add up only in one.
struct LedgerMetrics: Sendable {
    enum Name {
        static let owners = "tether_owners"
        static let ownersEnding = "tether_owners_ending"
        static let bindings = "tether_bindings"
        static let leakedOwners = "tether_leaked_owners"
        static let growingSites = "tether_growing_sites"
        static let leakVerdicts = "tether_leak_verdicts_total"
        static let zombieDeliveries = "tether_zombie_deliveries_total"
    }

    /// The dimension of `tether_bindings`, and its value for each kind of entry. Spelled here,
    /// not taken from `EntryKind`'s raw values, so that renaming a case cannot rename a series.
    static let kindDimension = "kind"

    static func kindValue(_ kind: EntryKind) -> String {
        switch kind {
        case .subscription: "subscription"
        case .task: "task"
        case .observer: "observer"
        case .binding: "binding"
        }
    }

    private let owners: Meter
    private let ownersEnding: Meter
    private let bindings: [(kind: EntryKind, meter: Meter)]
    private let leakedOwners: Meter
    private let growingSites: Meter
    private let leakVerdicts: Counter
    private let zombieDeliveries: Counter

    init(factory: any MetricsFactory) {
        owners = Meter(label: Name.owners, factory: factory)
        ownersEnding = Meter(label: Name.ownersEnding, factory: factory)
        bindings = EntryKind.allCases.map { kind in
            let dimensions = [(Self.kindDimension, Self.kindValue(kind))]
            return (kind, Meter(label: Name.bindings, dimensions: dimensions, factory: factory))
        }
        leakedOwners = Meter(label: Name.leakedOwners, factory: factory)
        growingSites = Meter(label: Name.growingSites, factory: factory)
        leakVerdicts = Counter(label: Name.leakVerdicts, factory: factory)
        zombieDeliveries = Counter(label: Name.zombieDeliveries, factory: factory)
    }

    /// Moves each gauge by what it changed from `old` to `new`, and counts the zombie deliveries
    /// `new` has that `old` had not. A gauge that did not change is not written.
    func move(from old: LedgerSnapshot.Counters, to new: LedgerSnapshot.Counters) {
        Self.move(owners, by: new.owners - old.owners)
        Self.move(ownersEnding, by: new.ending - old.ending)
        for (kind, meter) in bindings { Self.move(meter, by: new[kind] - old[kind]) }
        Self.move(leakedOwners, by: new.leaks - old.leaks)
        Self.move(growingSites, by: new.growing - old.growing)
        if new.zombies > old.zombies { zombieDeliveries.increment(by: new.zombies - old.zombies) }
    }

    /// Counts `count` leak verdicts.
    func countVerdicts(_ count: Int) {
        if count > 0 { leakVerdicts.increment(by: count) }
    }

    /// The backends reported to, by object, with their metrics and how many reporters use them.
    private static let backends = Mutex<
        [ObjectIdentifier: (backend: any MetricsFactory, metrics: LedgerMetrics, users: Int)]
    >([:])

    /// The metrics of `factory`, the same for every reporter to it while one uses them, and what
    /// to call once when the reporter ends. A backend that is not an object cannot be told apart
    /// from a copy of it: each reporter to it gets metrics of its own.
    static func shared(
        for factory: any MetricsFactory
    ) -> (metrics: LedgerMetrics, release: @Sendable () -> Void) {
        guard type(of: factory) is AnyObject.Type else { return (LedgerMetrics(factory: factory), {}) }
        let key = ObjectIdentifier(factory as AnyObject)
        // Made unlocked, as making them calls the backend; kept only if no reporter made them
        // meanwhile.
        let metrics = join(key) ?? join(key, keeping: LedgerMetrics(factory: factory), of: factory)
        return (metrics, { release(key) })
    }

    /// Counts one more reporter to the backend `key`; its metrics, if it has any.
    private static func join(_ key: ObjectIdentifier) -> LedgerMetrics? {
        backends.withLock { backends in
            guard let share = backends[key] else { return nil }
            backends[key]?.users = share.users + 1
            return share.metrics
        }
    }

    /// Counts one more reporter to the backend `key`; its metrics — `made`, if it has none yet.
    private static func join(
        _ key: ObjectIdentifier, keeping made: LedgerMetrics, of factory: any MetricsFactory
    ) -> LedgerMetrics {
        backends.withLock { backends in
            let share = backends[key] ?? (factory, made, 0)
            backends[key] = (share.backend, share.metrics, share.users + 1)
            return share.metrics
        }
    }

    /// A reporter to the backend `key` ended; the last one drops the backend's share.
    private static func release(_ key: ObjectIdentifier) {
        let dropped = backends.withLock { backends -> Any? in
            guard let users = backends[key]?.users else { return nil }
            guard users == 1 else {
                backends[key]?.users = users - 1
                return nil
            }
            return backends.removeValue(forKey: key)
        }
        _ = dropped  // released here, after unlocking
    }

    private static func move(_ meter: Meter, by delta: Int) {
        if delta > 0 {
            meter.increment(by: Double(delta))
        } else if delta < 0 {
            meter.decrement(by: Double(-delta))
        }
    }
}
