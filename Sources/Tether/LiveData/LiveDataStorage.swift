import Synchronization

/// The machinery of a ``LiveData``: its value, its version and its registrations.
///
/// Delivery follows androidx's LiveData: every value gets a version, and a registration never
/// receives a version it has seen or an older one. One dispatch runs at a time; a publish, an
/// activation or an addition that lands while one runs — re-entrantly or from another thread —
/// invalidates it, and the dispatch in progress goes round again with the newest value. A round
/// takes the value and the registrations under the lock, then calls the completions after
/// unlocking, abandoning the round as soon as a newer version is published.
///
/// `@unchecked Sendable`: `lock` protects `state` and the value in `valueBox`, and nothing is
/// called under it. (Values of any `T` arrive through `publish(value:)`, which cannot take them
/// as `sending`, so a `Mutex<State>` does not compile.) `publishedVersion` mirrors
/// `state.version` for the dispatcher to read between two calls. The value sits in a box, not in
/// a `T?`, so publishing looks up no `Optional<T>` metadata (Benchmarks/README.md, "LiveData").
final class LiveDataStorage<T>: @unchecked Sendable {
    /// Why a registration leaves.
    enum Departure {
        /// Its user removed it, its observer died, or the LiveData went away: end its ledger entry.
        case removed
        /// The lifetime it is bound to ended; the lifetime ends the entry (as cancelled).
        case lifetimeEnded
    }

    private struct State {
        /// Whether `valueBox` holds a value: false until the first publish.
        var hasValue = false
        var version: UInt64 = 0
        /// In increasing order of key.
        var slots: [LiveDataSlot] = []
        var nextKey: UInt64 = 0
        var dispatching = false
        var invalidated = false
    }

    private let lock = Mutex(())
    private var state = State()
    /// The latest value, once `state.hasValue`. Allocated once; read and replaced under the lock.
    private let valueBox = UnsafeMutablePointer<T>.allocate(capacity: 1)
    /// `state.version`, written under the lock, read by the dispatcher between two calls.
    private let publishedVersion = Atomic<UInt64>(0)

    init(value: T?) {
        if let value {
            valueBox.initialize(to: value)
            state.hasValue = true
            state.version = 1
            publishedVersion.store(1, ordering: .relaxed)
        }
    }

    deinit {
        // Nothing else can reach the state now; end what is left.
        let left = state.slots
        state.slots = []
        finish(left, .removed)
        if state.hasValue { valueBox.deinitialize(count: 1) }
        valueBox.deallocate()
    }

    var value: T? { lock.withLock { _ in state.hasValue ? valueBox.pointee : nil } }

    var observerCount: Int { lock.withLock { _ in state.slots.count { $0.observer != nil } } }

    // MARK: - Publishing

    func publish(_ value: T) {
        var replaced = value
        let start = lock.withLock { _ -> Bool in
            if state.hasValue {
                swap(&valueBox.pointee, &replaced)
            } else {
                valueBox.initialize(to: value)
                state.hasValue = true
            }
            state.version += 1
            publishedVersion.store(state.version, ordering: .relaxed)
            return claimDispatch()
        }
        _ = replaced  // the old value (or the first's copy) is released here, after unlocking
        if start { dispatch() }
    }

    /// Claims the dispatch, or marks the one in progress invalidated. Call under the lock.
    private func claimDispatch() -> Bool {
        if state.dispatching {
            state.invalidated = true
            return false
        }
        state.dispatching = true
        return true
    }

    /// Delivers the newest value to every active registration that has not received it, in
    /// order of registration, outside the lock. The caller holds the dispatch claim.
    private func dispatch() {
        withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer in
            dispatch(into: buffer.baseAddress!)
        }
    }

    /// ``dispatch()`` with `value`, uninitialized memory for the value of each round.
    private func dispatch(into value: UnsafeMutablePointer<T>) {
        var pruned: [LiveDataSlot] = []
        var slots: [LiveDataSlot] = []
        var version: UInt64 = 0
        var round = 0
        while true {
            let more = lock.withLock { _ -> Bool in
                if !pruned.isEmpty { pruned = removeSlots(pruned) }
                if round > 0 {
                    guard state.invalidated else {
                        state.dispatching = false
                        return false
                    }
                }
                state.invalidated = false
                guard state.hasValue else {
                    state.dispatching = false
                    return false
                }
                value.initialize(to: valueBox.pointee)
                slots = state.slots
                version = state.version
                return true
            }
            round += 1
            finish(pruned, .removed)
            pruned = []
            guard more else { break }
            LiveDataSlot.deliver(
                UnsafeRawPointer(value), version: version, to: slots, publishedVersion: publishedVersion,
                pruning: &pruned)
            // This round's copy of the value is released outside the lock.
            value.deinitialize(count: 1)
        }
        // The snapshot, and with it any completion removed meanwhile, is released after unlocking.
        slots = []
    }

    // MARK: - Registering

    /// Adds a registration bound to `lifetime` (removed when it ends) and dispatches to it if it
    /// is active. Returns its key, or nil when the lifetime had already ended.
    @discardableResult
    func register(
        observer: AnyObject, lifetime: Lifetime, entry: LedgerEntry?, isActive: Bool,
        completion: @escaping @Sendable (T) -> Void
    ) -> UInt64? {
        // Listed inactive: no dispatch calls it before its lifetime has taken the action that
        // removes it, which an ended lifetime runs at once.
        let slot = lock.withLock { _ -> LiveDataSlot in
            let slot = LiveDataSlot(
                key: state.nextKey, observer: observer, entry: entry, lifetime: lifetime, isActive: false,
                completion: completion)
            state.nextKey += 1
            state.slots.append(slot)
            return slot
        }
        let key = slot.key
        // An ended lifetime runs the action at once: the registration is gone already.
        guard
            let token = lifetime.insert(
                .call { [weak self] in self?.detach(key: key, .lifetimeEnded) }, entry: entry)
        else { return nil }
        let present = lock.withLock { _ -> Bool in
            guard slot.flags.load(ordering: .relaxed) & LiveDataSlot.removed == 0 else { return false }
            slot.setToken(token)
            if isActive { slot.flags.store(LiveDataSlot.active, ordering: .relaxed) }
            return true
        }
        // Removed (or its lifetime ended) before the token was known: take the action back out.
        guard present else {
            lifetime.remove(token)
            return nil
        }
        if isActive { requestDispatch() }
        return key
    }

    /// Stores the lifecycle subscription of registration `key`; cancels it if `key` is gone.
    func attach(_ token: AnyCancellable, to key: UInt64) {
        let stored = lock.withLock { _ -> Bool in
            guard let index = index(of: key) else { return false }
            state.slots[index].setLifecycleToken(token)
            return true
        }
        if !stored { token.cancel() }
    }

    /// Marks registration `key` active or inactive; an activation delivers the newest value if it
    /// has not received it yet.
    func setActive(_ isActive: Bool, key: UInt64) {
        var entry: LedgerEntry?
        let outcome = lock.withLock { _ -> (changed: Bool, dispatch: Bool) in
            guard let index = index(of: key) else { return (false, false) }
            let slot = state.slots[index]
            let wasActive = slot.flags.load(ordering: .relaxed) == LiveDataSlot.active
            guard wasActive != isActive else { return (false, false) }
            slot.flags.store(isActive ? LiveDataSlot.active : 0, ordering: .relaxed)
            entry = slot.entry
            return (true, isActive && claimDispatch())
        }
        guard outcome.changed else { return }
        entry?.setPaused(!isActive)
        if outcome.dispatch { dispatch() }
    }

    private func requestDispatch() {
        if lock.withLock({ _ in claimDispatch() }) { dispatch() }
    }

    // MARK: - Removing

    func remove(observer: AnyObject) {
        let target = ObjectIdentifier(observer)
        let removed = lock.withLock { _ -> [LiveDataSlot] in
            var removed: [LiveDataSlot] = []
            state.slots.removeAll { slot in
                // Dead observers go too: they would be pruned at the next dispatch anyway.
                guard let observed = slot.observer, ObjectIdentifier(observed) != target else {
                    slot.flags.store(LiveDataSlot.removed, ordering: .relaxed)
                    removed.append(slot)
                    return true
                }
                return false
            }
            return removed
        }
        finish(removed, .removed)
    }

    private func detach(key: UInt64, _ departure: Departure) {
        let removed = lock.withLock { _ -> LiveDataSlot? in
            guard let index = index(of: key) else { return nil }
            let slot = state.slots.remove(at: index)
            slot.flags.store(LiveDataSlot.removed, ordering: .relaxed)
            return slot
        }
        if let removed { finish([removed], departure) }
    }

    /// Under the lock: removes `pruned` from the registrations; returns those that were still there.
    private func removeSlots(_ pruned: [LiveDataSlot]) -> [LiveDataSlot] {
        pruned.filter { slot in
            guard let index = index(of: slot.key) else { return false }
            state.slots.remove(at: index)
            slot.flags.store(LiveDataSlot.removed, ordering: .relaxed)
            return true
        }
    }

    /// After unlocking: cancels lifecycle subscriptions, takes actions out of lifetimes, ends
    /// entries; the completions are released when `removed` goes.
    private func finish(_ removed: [LiveDataSlot], _ departure: Departure) {
        for slot in removed {
            let (lifecycleToken, lifetime, token) = lock.withLock { _ in slot.takeLinks() }
            lifecycleToken?.cancel()
            guard departure == .removed else { continue }
            if let token { lifetime?.remove(token) }
            slot.entry?.end(.ended)
        }
    }

    /// Under the lock: the index of registration `key` (binary search: keys increase).
    private func index(of key: UInt64) -> Int? {
        var low = 0
        var high = state.slots.count
        while low < high {
            let middle = (low + high) / 2
            let candidate = state.slots[middle].key
            if candidate == key { return middle }
            if candidate < key { low = middle + 1 } else { high = middle }
        }
        return nil
    }
}
