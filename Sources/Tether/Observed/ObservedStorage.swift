/// The machinery of an ``ObservedProperty``: the value, the observations in order of adding, and
/// the binding, behind one lock.
///
/// A write calls the `will` handlers, stores the value, calls the `did` handlers, then hands the
/// value to the bound partner, which does not hand it back. Handlers run outside the lock, from a
/// copy of the list taken just before; an observation removed or disabled meanwhile is skipped.
/// Two storages' locks are only ever taken together in address order (``withBoth(_:_:_:)``).
/// Handlers, lifetimes and ledger entries are called after unlocking.
///
/// The writing path is inlinable, so that a client's `@Observed var x: Int` notifies through code
/// specialized for `Int`.
@usableFromInline
final class ObservedStorage<Value>: Sendable {
    @usableFromInline
    struct Record {
        @usableFromInline let observation: PropertyObservation
        @usableFromInline let handler: @Sendable (Value, Value?) -> Void
    }

    /// A record out of the list, with its link to its lifetime if it was bound to one.
    struct Departed {
        let record: Record
        let link: LifetimeLink?
    }

    @usableFromInline
    struct State {
        @usableFromInline var value: Value
        /// How many writes were stored: the number of the last one.
        @usableFromInline var writes: UInt64 = 0
        @usableFromInline var records: [Record] = []
        @usableFromInline var binding: ObservedBinding<Value>?
        /// The links of the observations bound to a lifetime, by observation.
        var links: [ObjectIdentifier: LifetimeLink] = [:]

        /// Stores `newValue` in place of the value, counting the write.
        @inlinable
        mutating func store(_ newValue: Value) -> Stored {
            let old = value
            value = newValue
            writes &+= 1
            return Stored(old: old, records: records, binding: binding, write: writes)
        }

        /// Whether `handOver`, a write of this side, is still the last stored here and its binding
        /// still binds this side.
        @usableFromInline
        func stands(_ handOver: HandOver) -> Bool {
            writes == handOver.write && binding === handOver.binding
        }

        /// Takes out the observations that `leaves` says go, with their links.
        mutating func take(where leaves: (Record) -> Bool) -> [Departed] {
            var departed: [Departed] = []
            records.removeAll { record in
                guard leaves(record) else { return false }
                let link = links.removeValue(forKey: ObjectIdentifier(record.observation))
                departed.append(Departed(record: record, link: link))
                return true
            }
            return departed
        }

        mutating func purgeObsolete() -> [Departed] { take { $0.observation.isObsolete } }
    }

    /// What a write stored: the value it replaced, and whom to tell.
    @usableFromInline
    struct Stored {
        @usableFromInline let old: Value
        @usableFromInline let records: [Record]
        @usableFromInline let binding: ObservedBinding<Value>?
        @usableFromInline let write: UInt64

        @inlinable init(old: Value, records: [Record], binding: ObservedBinding<Value>?, write: UInt64) {
            self.old = old
            self.records = records
            self.binding = binding
            self.write = write
        }
    }

    /// A write the binding hands to the other side: it comes from `source`, whose write number
    /// `write` it was, and goes back nowhere.
    @usableFromInline
    struct HandOver {
        @usableFromInline let binding: ObservedBinding<Value>
        let source: ObservedStorage<Value>
        let write: UInt64
    }

    @usableFromInline let state: LockedBox<State>

    init(_ value: Value) {
        state = LockedBox(State(value: value))
    }

    deinit {
        // Nothing else can reach the state now: sever the binding and end the observations.
        let (binding, departed) = state.withLock { state in (state.binding, state.take { _ in true }) }
        if let binding {
            binding.partner(of: self)?.sever(binding)
            binding.entry?.end(.ended)
        }
        finish(departed, lifetimeEnded: false)
    }

    // MARK: - Value

    var value: Value { state.withLock { $0.value } }

    /// Writes `newValue`: the `will` handlers, the store, the `did` handlers, then the partner.
    @inlinable
    func set(_ newValue: Value) {
        write(newValue, handedOverBy: nil)
    }

    /// Writes `newValue`. A value handed over by the binding is stored only while its source
    /// still holds it — checked and stored under both locks — so a source rewritten meanwhile (by
    /// a handler, re-entrantly, or by another thread) is not overwritten on this side by its older
    /// value: the newer write hands itself over. So two bound properties end on the same value.
    /// Nor is it stored once the binding is gone: a handler that unbinds stops the write in
    /// progress from crossing.
    @inlinable
    func write(_ newValue: Value, handedOverBy handOver: HandOver?) {
        if let handOver, !isCurrent(handOver) { return }
        notify(state.withLock { $0.records }, at: .will, newValue, nil)
        let stored =
            handOver.map { store(newValue, handedOverBy: $0) } ?? state.withLock { $0.store(newValue) }
        guard let stored else { return }
        // A hand-over is the binding's delivery once it crossed: stored on this side.
        handOver?.binding.crossed()
        notify(stored.records, at: .did, newValue, stored.old)
        guard let binding = stored.binding, binding !== handOver?.binding else { return }
        pass(newValue, through: binding, write: stored.write)
    }

    /// Calls the handlers of `records` that fire at `phase`, each counted before it is called (a
    /// handler that ends its own lifetime received the value before the end, which is no zombie
    /// delivery) and its zombie recorded after (a change handler that this tells may remove an
    /// observation, which must not be called after that).
    @inlinable
    func notify(_ records: [Record], at phase: ObservationPhase, _ new: Value, _ old: Value?) {
        for record in records where record.observation.fires(at: phase) {
            let zombie = record.observation.countDelivery()
            record.handler(new, old)
            if zombie { record.observation.recordZombie() }
        }
    }

    /// Whether `handOver`, a write of its source, may still cross.
    @usableFromInline
    func isCurrent(_ handOver: HandOver) -> Bool {
        handOver.source.state.withLock { $0.stands(handOver) }
    }

    /// Under both locks: stores `newValue` if `handOver` still stands.
    @usableFromInline
    func store(_ newValue: Value, handedOverBy handOver: HandOver) -> Stored? {
        Self.withBoth(self, handOver.source) { mine, source in
            source.stands(handOver) ? mine.store(newValue) : nil
        }
    }

    /// Hands write number `write` of this side to the partner across `binding`.
    @usableFromInline
    func pass(_ newValue: Value, through binding: ObservedBinding<Value>, write: UInt64) {
        guard let partner = binding.partner(of: self) else { return }
        partner.write(newValue, handedOverBy: HandOver(binding: binding, source: self, write: write))
    }

    // MARK: - Observations

    func observe(
        _ kind: ObservationType, entry: LedgerEntry?, lifetime: Lifetime?,
        handler: @escaping @Sendable (Value, Value?) -> Void
    ) -> PropertyObservation {
        // Listed pending when it has a lifetime: no write calls it before it is bound there.
        let observation = PropertyObservation(kind: kind, entry: entry, pending: lifetime != nil)
        let purged = state.withLock { state in
            defer { state.records.append(Record(observation: observation, handler: handler)) }
            return state.purgeObsolete()
        }
        finish(purged, lifetimeEnded: false)
        guard let lifetime else { return observation }
        _ = LifetimeLink.bind(
            lifetime, entry: entry,
            removal: { [weak self, weak observation] in
                guard let self, let observation else { return }
                self.detach(observation)
            }
        ) { link in
            state.withLock { state in
                guard state.records.contains(where: { $0.observation === observation }) else { return false }
                state.links[ObjectIdentifier(observation)] = link
                observation.markListed()
                return true
            }
        }
        return observation
    }

    func remove(_ observation: PropertyObservation) -> Bool {
        let (removed, purged) = state.withLock { state in
            (state.take { $0.observation === observation }, state.purgeObsolete())
        }
        finish(purged + removed, lifetimeEnded: false)
        return !removed.isEmpty
    }

    func cleanse() {
        finish(state.withLock { $0.purgeObsolete() }, lifetimeEnded: false)
    }

    /// Removes `observation` because its lifetime ended (the lifetime ends the entry).
    private func detach(_ observation: PropertyObservation) {
        finish(state.withLock { $0.take { $0.observation === observation } }, lifetimeEnded: true)
    }

    /// After unlocking: stops the observations, cuts their links to their lifetimes, ends their
    /// entries. The handlers are released when `departed` goes.
    private func finish(_ departed: [Departed], lifetimeEnded: Bool) {
        for gone in departed {
            gone.record.observation.markRemoved()
            guard !lifetimeEnded else { continue }
            gone.link?.cut()
            gone.record.observation.entry?.end(.ended)
        }
    }

    // MARK: - Binding

    /// Binds the two sides, if neither is bound. Purges both sides' obsolete observations
    /// either way, as every call does.
    func bind(_ other: ObservedStorage<Value>, site: CallSite) -> Bool {
        guard other !== self else {
            cleanse()
            return false
        }
        let (free, purged) = Self.withBoth(self, other) { mine, others in
            (mine.binding == nil && others.binding == nil, mine.purgeObsolete() + others.purgeObsolete())
        }
        finish(purged, lifetimeEnded: false)
        guard free else { return false }
        let entry = Ledger.current.open(.binding, owner: nil, site: site, bound: false)
        let binding = ObservedBinding(self, other, entry: entry)
        let bound = Self.withBoth(self, other) { mine, others in
            // Another bind may have won the race since the check above.
            guard mine.binding == nil, others.binding == nil else { return false }
            mine.binding = binding
            others.binding = binding
            return true
        }
        if !bound { entry?.end(.ended) }
        return bound
    }

    func unbind(_ other: ObservedStorage<Value>) -> Bool {
        guard other !== self else {
            cleanse()
            return false
        }
        let (binding, purged) = Self.withBoth(self, other) { mine, others in
            let purged = mine.purgeObsolete() + others.purgeObsolete()
            guard let binding = mine.binding, binding === others.binding else {
                return (ObservedBinding<Value>?.none, purged)
            }
            mine.binding = nil
            others.binding = nil
            return (binding, purged)
        }
        finish(purged, lifetimeEnded: false)
        binding?.entry?.end(.ended)
        return binding != nil
    }

    /// Drops `binding` because its other side deinitialized.
    private func sever(_ binding: ObservedBinding<Value>) {
        state.withLock { state in
            if state.binding === binding { state.binding = nil }
        }
    }

    /// Runs `body` with `a`'s state and `b`'s, holding both locks, taken in address order so that
    /// two threads locking the same pair cannot deadlock.
    @usableFromInline
    static func withBoth<Result>(
        _ a: ObservedStorage<Value>, _ b: ObservedStorage<Value>, _ body: (inout State, inout State) -> Result
    ) -> Result {
        if ObjectIdentifier(a) < ObjectIdentifier(b) {
            return a.state.withLock { first in b.state.withLock { second in body(&first, &second) } }
        }
        return b.state.withLock { second in a.state.withLock { first in body(&first, &second) } }
    }
}
