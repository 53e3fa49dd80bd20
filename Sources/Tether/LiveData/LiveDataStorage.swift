import Synchronization

/// The machinery of a ``LiveData``: its value, its version and its registrations, behind one lock.
///
/// Delivery follows androidx's LiveData: every value gets a version, and a registration never
/// receives a version it has seen or an older one. One dispatch runs at a time; a publish, an
/// activation or an addition that lands while one runs — re-entrantly or from another thread —
/// invalidates it, and the dispatch in progress goes round again with the newest value. A round
/// takes the value and the registrations under the lock, then calls the completions after
/// unlocking, abandoning the round as soon as a newer version is published.
///
/// The publishing path is inlinable, so that a client's `LiveData<Int>` delivers through code
/// specialized for `Int`.
@usableFromInline
final class LiveDataStorage<T>: Sendable {
    @usableFromInline typealias Slot = LiveDataSlot<T>

    /// Why a registration leaves.
    @usableFromInline
    enum Departure {
        /// Its user removed it, its observer died, or the LiveData went away: end its ledger entry.
        case removed
        /// The lifetime it is bound to ended; the lifetime ends the entry (as cancelled).
        case lifetimeEnded
    }

    @usableFromInline let state: LockedBox<State>
    /// `state.version`, written under the lock, read by the dispatcher between two calls.
    @usableFromInline let publishedVersion: Atomic<UInt64>

    init(value: T?) {
        let state = State(value: value)
        publishedVersion = Atomic(state.version)
        self.state = LockedBox(state)
    }

    deinit {
        // Nothing else can reach the registrations now; end what is left.
        finish(state.withLock { $0.remove($0.slots) }, .removed)
    }

    var value: T? { state.withLock { $0.value } }

    var observerCount: Int {
        // Each observer is loaded under the lock and released after it (see `remove(observer:)`).
        var alive: [AnyObject] = []
        state.withLock { alive = $0.slots.compactMap(\.observer) }
        return alive.count
    }

    // MARK: - Publishing

    @inlinable
    func publish(_ value: T) {
        var replaced: T? = value
        let start = state.withLock { state in
            swap(&state.value, &replaced)
            state.version += 1
            publishedVersion.store(state.version, ordering: .relaxed)
            return state.claimDispatch()
        }
        _ = replaced  // the old value is released here, after unlocking
        if start { dispatch() }
    }

    /// Delivers the newest value to every active registration that has not received it, in
    /// order of registration, outside the lock, round after round while it is invalidated. The
    /// caller holds the dispatch claim.
    @inlinable
    func dispatch() {
        var dead: [Slot] = []
        var isFirst = true
        while true {
            let (round, pruned) = state.withLock { state in
                (state.nextRound(isFirst: isFirst), dead.isEmpty ? [] : state.remove(dead))
            }
            isFirst = false
            dead = []
            if !pruned.isEmpty { finish(pruned, .removed) }
            guard let round else { return }
            deliver(round, pruning: &dead)
        }
    }

    /// One round: calls every due registration in order, returning early when a newer version is
    /// published. Registrations whose observer died are added to `dead`.
    @inlinable
    func deliver(_ round: Round, pruning dead: inout [Slot]) {
        var delivery = RoundDelivery(storage: self, round: round)
        round.slots.visitBorrowed(&delivery)
        dead += delivery.dead
    }

    /// One round's delivery to each slot, borrowed from the round (which holds them all), so that
    /// a delivery retains none.
    @usableFromInline
    struct RoundDelivery: BorrowingVisitor {
        @usableFromInline let storage: LiveDataStorage
        @usableFromInline let round: Round
        @usableFromInline var dead: [Slot] = []

        @inlinable init(storage: LiveDataStorage, round: Round) {
            self.storage = storage
            self.round = round
        }

        @inlinable
        mutating func visit(_ slot: Slot) -> Bool {
            guard storage.publishedVersion.load(ordering: .relaxed) == round.version else { return false }
            if slot.deliver(round.value, version: round.version) == .dead { dead.append(slot) }
            return true
        }
    }

    // MARK: - Registering

    /// Adds a registration bound to `lifetime` (removed when it ends), and dispatches to it if it
    /// is active from the start. Returns its key, or nil when the lifetime had already ended.
    @discardableResult
    func register(
        observer: AnyObject, lifetime: Lifetime, entry: LedgerEntry?, activation: Slot.Activation,
        completion: @escaping @Sendable (T) -> Void
    ) -> UInt64? {
        // An observer that tracks the lifetime holds it, so the lifetime's end says it is gone;
        // but a lifecycle is held by whoever observes it too (a task repeating on it), and its
        // lifetime may outlive its owner: a lifecycle-bound registration checks its owner.
        let checksObserver: Bool
        switch activation {
        case .always: checksObserver = !lifetime.isTracked(by: observer)
        case .whileStarted: checksObserver = true
        }
        // Listed inactive: no dispatch calls it before it is bound to its lifetime.
        let slot = state.withLock { state in
            state.list { key in
                Slot(
                    key: key, observer: observer, checksObserver: checksObserver, entry: entry,
                    activation: activation, completion: completion)
            }
        }
        let key = slot.key
        var start = false
        let bound = LifetimeLink.bind(
            lifetime, entry: entry, removal: { [weak self] in self?.detach(key: key, .lifetimeEnded) }
        ) { link in
            state.withLock { state in
                guard state.ties[key] != nil else { return false }
                state.ties[key]?.link = link
                if case .always = activation {
                    slot.status.store(.active, ordering: .relaxed)
                    start = state.claimDispatch()
                }
                return true
            }
        }
        if start { dispatch() }
        return bound ? key : nil
    }

    /// Stores the lifecycle subscription of registration `key`; cancels it if `key` is gone.
    func attach(_ token: AnyCancellable, to key: UInt64) {
        let stored = state.withLock { state in
            guard state.ties[key] != nil else { return false }
            state.ties[key]?.lifecycleToken = token
            return true
        }
        if !stored { token.cancel() }
    }

    /// Marks registration `key` active or inactive; an activation delivers the newest value if it
    /// has not received it yet.
    func setActive(_ isActive: Bool, key: UInt64) {
        let status: LiveDataSlot<T>.Status = isActive ? .active : .inactive
        let changed = state.withLock { state -> (entry: LedgerEntry?, start: Bool)? in
            guard let slot = state.slots.first(where: { $0.key == key }),
                slot.status.load(ordering: .relaxed) != status
            else { return nil }
            slot.status.store(status, ordering: .relaxed)
            return (slot.entry, isActive && state.claimDispatch())
        }
        guard let changed else { return }
        changed.entry?.setPaused(!isActive)
        if changed.start { dispatch() }
    }

    // MARK: - Removing

    /// Removes every registration of `observer`, and those whose observer is gone.
    func remove(observer: AnyObject) {
        // Loading a weak observer holds it: kept past the lock, so that the release that would be
        // its last, if another thread let it go meanwhile, runs its deinit after unlocking (that
        // deinit may end a bag whose registrations come back here).
        var loaded: [AnyObject?] = []
        let removed = state.withLock { state in
            loaded = state.slots.map(\.observer)
            return state.remove(
                zip(state.slots, loaded).compactMap { slot, held in
                    held == nil || held === observer ? slot : nil
                })
        }
        finish(removed, .removed)
        withExtendedLifetime(loaded) {}
    }

    private func detach(key: UInt64, _ departure: Departure) {
        if let leaving = state.withLock({ $0.remove(key: key) }) { finish([leaving], departure) }
    }

    /// After unlocking: cancels lifecycle subscriptions, cuts links to lifetimes, ends entries;
    /// the completions are released when `leaving` goes.
    @usableFromInline
    func finish(_ leaving: [Leaving], _ departure: Departure) {
        for registration in leaving {
            registration.ties.lifecycleToken?.cancel()
            guard departure == .removed else { continue }
            registration.ties.link?.cut()
            registration.slot.entry?.end(.ended)
        }
    }
}
