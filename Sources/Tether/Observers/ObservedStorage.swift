import Synchronization

/// The machinery of an ``ObservedProperty``: the value, the observations in order of adding, and
/// the binding.
///
/// A write calls the `will` handlers, stores the value, calls the `did` handlers, then hands the
/// value to the bound partner — marked as coming through the binding, so the partner does not
/// hand it back. Handlers run outside the lock, from a copy of the list taken just before; an
/// observation removed or disabled meanwhile is skipped.
///
/// `@unchecked Sendable` because it holds a `Value` of any type and weak references to lifetimes:
/// `lock` protects `state` — every read and write of it happens inside `lock.withLock`, and two
/// storages' locks are only ever taken together in address order (``withBoth(_:_:_:)``). Handlers,
/// lifetimes and ledger entries are called after unlocking.
final class ObservedStorage<Value>: @unchecked Sendable {
    struct Record {
        let observation: PropertyObservation
        let handler: @Sendable (Value, Value?) -> Void
        weak var lifetime: Lifetime?
        var token: Lifetime.Token?
    }

    private struct State {
        var value: Value
        var records: [Record] = []
        var binding: ObservedBinding<Value>?
    }

    private let lock = Mutex(())
    private var state: State

    init(_ value: Value) {
        state = State(value: value)
    }

    deinit {
        // Nothing else can reach the state now: sever the binding and end the observations.
        if let binding = state.binding {
            binding.partner(of: self)?.sever(binding)
            binding.entry?.end(.ended)
        }
        finish(state.records, lifetimeEnded: false)
    }

    // MARK: - Value

    var value: Value { lock.withLock { _ in state.value } }

    /// Writes `newValue`, notifying observers, then the partner unless the write came through
    /// `source` (the binding itself).
    func set(_ newValue: Value, through source: ObservedBinding<Value>? = nil) {
        let before = lock.withLock { _ in state.records }
        for record in before where record.observation.fires(at: .will) {
            record.handler(newValue, nil)
            record.observation.entry?.delivered()
        }
        let (old, after, binding) = lock.withLock { _ -> (Value, [Record], ObservedBinding<Value>?) in
            let old = state.value
            state.value = newValue
            return (old, state.records, state.binding)
        }
        for record in after where record.observation.fires(at: .did) {
            record.handler(newValue, old)
            record.observation.entry?.delivered()
        }
        guard let binding, binding !== source, let partner = binding.partner(of: self) else { return }
        binding.entry?.delivered()
        partner.set(newValue, through: binding)
    }

    // MARK: - Observations

    func observe(
        _ kind: ObservationType, entry: LedgerEntry?, lifetime: Lifetime?,
        handler: @escaping @Sendable (Value, Value?) -> Void
    ) -> PropertyObservation {
        let observation = PropertyObservation(kind: kind, entry: entry)
        let purged = lock.withLock { _ -> [Record] in
            let purged = purgeObsolete()
            state.records.append(Record(observation: observation, handler: handler, lifetime: lifetime))
            return purged
        }
        finish(purged, lifetimeEnded: false)
        guard let lifetime else { return observation }
        let token = lifetime.insert(
            .call { [weak self, weak observation] in
                guard let self, let observation else { return }
                self.detach(observation)
            }, entry: entry)
        let present = lock.withLock { _ -> Bool in
            guard let index = state.records.firstIndex(where: { $0.observation === observation }) else {
                return false
            }
            state.records[index].token = token
            return true
        }
        if !present { lifetime.remove(token) }
        return observation
    }

    func remove(_ observation: PropertyObservation) -> Bool {
        let (removed, purged) = lock.withLock { _ -> (Record?, [Record]) in
            let index = state.records.firstIndex { $0.observation === observation }
            let removed = index.map { state.records.remove(at: $0) }
            return (removed, purgeObsolete())
        }
        finish(purged + (removed.map { [$0] } ?? []), lifetimeEnded: false)
        return removed != nil
    }

    func cleanse() {
        let purged = lock.withLock { _ in purgeObsolete() }
        finish(purged, lifetimeEnded: false)
    }

    /// Removes `observation` because its lifetime ended (the lifetime ends the entry).
    private func detach(_ observation: PropertyObservation) {
        let removed = lock.withLock { _ -> Record? in
            guard let index = state.records.firstIndex(where: { $0.observation === observation }) else {
                return nil
            }
            return state.records.remove(at: index)
        }
        if let removed { finish([removed], lifetimeEnded: true) }
    }

    /// Under the lock: takes out the obsolete observations.
    private func purgeObsolete() -> [Record] {
        var purged: [Record] = []
        state.records.removeAll { record in
            guard record.observation.isObsolete else { return false }
            purged.append(record)
            return true
        }
        return purged
    }

    /// After unlocking: stops the observations, takes them out of their lifetimes, ends their
    /// entries. The handlers are released when `records` goes.
    private func finish(_ records: [Record], lifetimeEnded: Bool) {
        for record in records {
            record.observation.markRemoved()
            guard !lifetimeEnded else { continue }
            if let token = record.token { record.lifetime?.remove(token) }
            record.observation.entry?.end(.ended)
        }
    }

    // MARK: - Binding

    func bind(_ other: ObservedStorage<Value>, site: CallSite) -> Bool {
        guard other !== self else { return false }
        let free = Self.withBoth(self, other) { !self.isBound && !other.isBound }
        guard free else { return false }
        let entry = Ledger.current.open(.binding, owner: nil, site: site, bound: false)
        let binding = ObservedBinding(self, other, entry: entry)
        let (bound, purged) = Self.withBoth(self, other) { () -> (Bool, [Record]) in
            let purged = self.purgeObsolete() + other.purgeObsolete()
            // Another bind may have won the race since the check above.
            guard !self.isBound, !other.isBound else { return (false, purged) }
            self.state.binding = binding
            other.state.binding = binding
            return (true, purged)
        }
        finish(purged, lifetimeEnded: false)
        if !bound { entry?.end(.ended) }
        return bound
    }

    func unbind(_ other: ObservedStorage<Value>) -> Bool {
        guard other !== self else { return false }
        let (binding, purged) = Self.withBoth(self, other) { () -> (ObservedBinding<Value>?, [Record]) in
            let purged = self.purgeObsolete() + other.purgeObsolete()
            guard let binding = self.state.binding, binding === other.state.binding else {
                return (nil, purged)
            }
            self.state.binding = nil
            other.state.binding = nil
            return (binding, purged)
        }
        finish(purged, lifetimeEnded: false)
        binding?.entry?.end(.ended)
        return binding != nil
    }

    /// Drops `binding` because its other side deinitialized.
    private func sever(_ binding: ObservedBinding<Value>) {
        lock.withLock { _ in
            if state.binding === binding { state.binding = nil }
        }
    }

    /// Under the lock.
    private var isBound: Bool { state.binding != nil }

    /// Runs `body` holding both storages' locks, taken in address order so that two threads
    /// locking the same pair cannot deadlock.
    private static func withBoth<Result: Sendable>(
        _ a: ObservedStorage<Value>, _ b: ObservedStorage<Value>, _ body: () -> Result
    ) -> Result {
        let (first, second) = ObjectIdentifier(a) < ObjectIdentifier(b) ? (a, b) : (b, a)
        return first.lock.withLock { _ in second.lock.withLock { _ in body() } }
    }
}
