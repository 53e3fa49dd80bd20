import Synchronization

/// The machinery of a ``LiveData``: its value, its version and its registrations.
///
/// Delivery follows androidx's LiveData: every value gets a version; a registration remembers the
/// last version it received and never receives an older or the same one again. One dispatch runs
/// at a time; a publish (or an activation, or an addition) that lands while one runs — re-entrantly
/// from a completion or from another thread — marks it invalidated, and the dispatch in progress
/// goes round again with the newest value. So no registration sees an older value after a newer
/// one, and every active registration ends on the newest.
///
/// A dispatch is linear: under the lock it takes the value, its version and the registration
/// array (copy-on-write, so an O(1) snapshot), then calls the completions after unlocking. Between
/// two calls it reads the published version atomically: a newer one abandons the round, and the
/// next round delivers the newer value (registrations already called in the abandoned round
/// receive it too; the others receive only it). Each registration's `flags` (active, removed)
/// are written under the lock and read atomically before each call, so a registration removed or
/// deactivated during a dispatch is not called by it; its `delivered` version is only touched by
/// the thread holding the dispatch claim (handed over under the lock).
///
/// The value lives in `valueBox`, not in an optional in `state`: unspecialized generic code (the
/// type is generic over a `T` it never sees) looks up `Optional<T>`'s metadata at run time
/// wherever it makes or copies a `T?`, five times a publish; a `T` needs none.
///
/// `@unchecked Sendable` because registrations hold weak references to arbitrary observers and
/// values of any `T`: `lock` protects `state` and the value in `valueBox` — every read and write of
/// them happens inside `lock.withLock`. Besides it,
/// `publishedVersion` mirrors `state.version` atomically for the dispatcher. Completions,
/// lifetimes, cancellables and released values taken out of it are called or dropped after
/// unlocking.
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
        // Not even listed for a moment: a dispatch running on another thread would call it.
        guard !lifetime.isEnded else {
            entry?.end(.cancelled)
            return nil
        }
        let slot = lock.withLock { _ -> LiveDataSlot in
            let slot = LiveDataSlot(
                key: state.nextKey, observer: observer, entry: entry, lifetime: lifetime, isActive: isActive,
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

/// One registration of a ``LiveData``, whatever its value type: the per-value path is not generic.
///
/// A delivery reads what it needs from the slot itself: its `flags` (one relaxed load says whether
/// it is active and not removed) and its `delivered` version. It loads the weak `observer` only
/// when the observer is not the object that tracks the registration's lifetime: an observer that
/// tracks its bag holds it, so the bag ends — and sets the slot's `removed` flag — when the
/// observer goes, and a weak load (a side-table retain and release, the larger half of a delivery)
/// would only repeat what the flag says.
///
/// `@unchecked Sendable` because it holds a weak reference to an arbitrary observer: `lock`
/// protects `weakObserver`, `weakLifetime`, `token` and `lifecycleToken`, and is never held while
/// calling out. The rest are `let`s and atomics (see ``LiveDataStorage`` for who writes `flags`
/// and `delivered`).
final class LiveDataSlot: @unchecked Sendable {
    enum Outcome {
        case skipped
        case delivered
        /// Its observer is gone: prune it.
        case dead
    }

    static var active: UInt8 { 1 }
    static var removed: UInt8 { 2 }

    let key: UInt64
    /// Whether the observer tracks the registration's lifetime: the lifetime's end, not a weak
    /// load, says it is gone.
    let observerEndsLifetime: Bool
    let entry: LedgerEntry?
    /// `active` and `removed` bits; written under the storage's lock.
    let flags: Atomic<UInt8>
    /// The version of the last value delivered; 0 before the first. Read and written only by the
    /// thread holding the storage's dispatch claim.
    let delivered = Atomic<UInt64>(0)
    /// Calls the completion with the `T` a pointer points to; made where `T` is known.
    private let receive: @Sendable (UnsafeRawPointer) -> Void

    private let lock = Mutex(())
    private weak var weakObserver: AnyObject?
    private weak var weakLifetime: Lifetime?
    private var token: Lifetime.Token?
    /// The lifecycle subscription of a lifecycle-bound registration.
    private var lifecycleToken: AnyCancellable?

    init<T>(
        key: UInt64, observer: AnyObject, entry: LedgerEntry?, lifetime: Lifetime, isActive: Bool,
        completion: @escaping @Sendable (T) -> Void
    ) {
        self.key = key
        weakObserver = observer
        observerEndsLifetime = lifetime.isTracked(by: observer)
        self.entry = entry
        weakLifetime = lifetime
        flags = Atomic(isActive ? LiveDataSlot.active : 0)
        receive = { completion($0.assumingMemoryBound(to: T.self).pointee) }
    }

    var observer: AnyObject? { lock.withLock { _ in weakObserver } }

    /// Records the action in the lifetime that removes the registration when the lifetime ends.
    func setToken(_ token: Lifetime.Token) { lock.withLock { _ in self.token = token } }

    /// Records the registration's lifecycle subscription.
    func setLifecycleToken(_ token: AnyCancellable) { lock.withLock { _ in lifecycleToken = token } }

    /// Takes what ties the registration to its lifetime and lifecycle, to cancel after unlocking.
    func takeLinks() -> (lifecycleToken: AnyCancellable?, lifetime: Lifetime?, token: Lifetime.Token?) {
        lock.withLock { _ in
            defer { lifecycleToken = nil }
            return (lifecycleToken, weakLifetime, token)
        }
    }

    /// Whether the observer is known to be gone. An observer that tracks the lifetime is removed
    /// with it instead.
    var isObserverGone: Bool { !observerEndsLifetime && observer == nil }

    /// Outside the lock, by the thread holding the dispatch claim: calls the completion with
    /// version `version` of the value, unless it is inactive, removed, already has it or its
    /// observer is gone.
    @inline(__always)
    func deliver(_ value: UnsafeRawPointer, version: UInt64) -> Outcome {
        let flags = flags.load(ordering: .relaxed)
        guard flags == LiveDataSlot.active, delivered.load(ordering: .relaxed) < version else {
            // An inactive registration is not called, but one whose observer died goes.
            return flags == 0 && isObserverGone ? .dead : .skipped
        }
        if isObserverGone { return .dead }
        delivered.store(version, ordering: .relaxed)
        // Counted before the call: a completion that ends its own bag received the value before
        // the end, which is no zombie delivery.
        entry?.deliveredSerially()
        receive(value)
        return .delivered
    }

    /// One round of a dispatch, outside the lock: calls every due registration of `slots` with
    /// `value`, in order, returning early when `publishedVersion` moves past `version`.
    /// Registrations whose observer died are added to `pruned`.
    static func deliver(
        _ value: UnsafeRawPointer, version: UInt64, to slots: [LiveDataSlot],
        publishedVersion: borrowing Atomic<UInt64>, pruning pruned: inout [LiveDataSlot]
    ) {
        slots.withUnsafeBufferPointer { buffer in
            // The snapshot keeps every slot alive for the round: read them as unmanaged references,
            // so that the loop retains and releases nothing per registration.
            buffer.withMemoryRebound(to: Unmanaged<LiveDataSlot>.self) { slots in
                for slot in slots {
                    if publishedVersion.load(ordering: .relaxed) != version { return }
                    let outcome = slot._withUnsafeGuaranteedRef { $0.deliver(value, version: version) }
                    if outcome == .dead { pruned.append(slot.takeUnretainedValue()) }
                }
            }
        }
    }
}
