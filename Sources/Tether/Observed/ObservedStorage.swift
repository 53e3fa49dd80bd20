import Synchronization

/// The machinery of an ``ObservedProperty``: the value, the observations in order of adding, and
/// the binding.
///
/// A write calls the `will` handlers, stores the value, calls the `did` handlers, then hands the
/// value to the bound partner, which does not hand it back. Handlers run outside the lock, from a
/// copy of the list taken just before; an observation removed or disabled meanwhile is skipped.
///
/// `@unchecked Sendable`: `lock` protects `state`, and two storages' locks are only ever taken
/// together in address order (``withBoth(_:_:_:)``). (Values of any type arrive through the
/// property's setter, which cannot take them as `sending`, so a `Mutex<State>` does not compile.)
/// Handlers, lifetimes and ledger entries are called after unlocking.
final class ObservedStorage<Value>: @unchecked Sendable {
    struct Record {
        let observation: PropertyObservation
        let handler: @Sendable (Value, Value?) -> Void
        weak var lifetime: Lifetime?
        var token: Lifetime.Token?
    }

    private struct State {
        var value: Value
        /// How many writes were stored: the number of the last one.
        var writes: UInt64 = 0
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

    /// Writes `newValue`: the `will` handlers, the store, the `did` handlers, then the partner.
    func set(_ newValue: Value) {
        write(newValue, handedOverBy: nil)
    }

    /// A write the binding hands to the other side: it comes from `source`, whose write number
    /// `write` it was, and goes back nowhere.
    private struct HandOver {
        let binding: ObservedBinding<Value>
        let source: ObservedStorage<Value>
        let write: UInt64
    }

    /// Writes `newValue`. A value handed over by the binding is stored only while its source
    /// still holds it — checked and stored under both locks — so a source rewritten meanwhile (by
    /// a handler, re-entrantly, or by another thread) is not overwritten on this side by its older
    /// value: the newer write hands itself over. So two bound properties end on the same value.
    /// Nor is it stored once the binding is gone: a handler that unbinds stops the write in
    /// progress from crossing.
    private func write(_ newValue: Value, handedOverBy handOver: HandOver?) {
        if let handOver, !handOver.source.isCurrent(handOver) { return }
        let before = lock.withLock { _ in state.records }
        // Each call is counted before it is made: a handler that ends its own lifetime received the
        // value before the end, which is no zombie delivery.
        for record in before where record.observation.fires(at: .will) {
            record.observation.entry?.delivered()
            record.handler(newValue, nil)
        }
        let stored: Stored?
        if let handOver {
            stored = Self.withBoth(self, handOver.source) { () -> Stored? in
                guard handOver.source.stands(handOver) else { return nil }
                let old = self.state.value
                self.state.value = newValue
                return self.stored(replacing: old)
            }
        } else {
            stored = lock.withLock { _ in
                let old = state.value
                state.value = newValue
                return self.stored(replacing: old)
            }
        }
        guard let stored else { return }
        for record in stored.records where record.observation.fires(at: .did) {
            record.observation.entry?.delivered()
            record.handler(newValue, stored.old)
        }
        guard let binding = stored.binding, binding !== handOver?.binding,
            let partner = binding.partner(of: self)
        else { return }
        binding.entry?.delivered()
        partner.write(newValue, handedOverBy: HandOver(binding: binding, source: self, write: stored.write))
    }

    private struct Stored {
        let old: Value
        let records: [Record]
        let binding: ObservedBinding<Value>?
        let write: UInt64
    }

    /// Under the lock, once a new value is in place of `old`: counts the write.
    private func stored(replacing old: Value) -> Stored {
        state.writes &+= 1
        return Stored(old: old, records: state.records, binding: state.binding, write: state.writes)
    }

    /// Whether `handOver`, a write of this side, may still cross: see ``stands(_:)``.
    private func isCurrent(_ handOver: HandOver) -> Bool { lock.withLock { _ in stands(handOver) } }

    /// Under the lock: whether `handOver`'s write is still the last stored here and its binding
    /// still binds this side.
    private func stands(_ handOver: HandOver) -> Bool {
        state.writes == handOver.write && state.binding === handOver.binding
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
        // An ended lifetime runs the action at once: the observation is removed already.
        guard
            let token = lifetime.insert(
                .call { [weak self, weak observation] in
                    guard let self, let observation else { return }
                    self.detach(observation)
                }, entry: entry)
        else { return observation }
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
    private static func withBoth<Result>(
        _ a: ObservedStorage<Value>, _ b: ObservedStorage<Value>, _ body: () -> sending Result
    ) -> Result {
        let (first, second) = ObjectIdentifier(a) < ObjectIdentifier(b) ? (a, b) : (b, a)
        return first.lock.withLock { _ in second.lock.withLock { _ in body() } }
    }
}
