import Synchronization

/// The machinery of a ``LiveData``: its value, its version and its registrations.
///
/// Delivery follows androidx's LiveData: every value gets a version; a registration remembers the
/// last version it received and never receives an older or the same one again. One dispatch runs
/// at a time; a publish (or an activation) that lands while one runs — re-entrantly from a
/// completion or from another thread — marks it invalidated, and the dispatch in progress starts
/// over with the newest value. So no registration sees an older value after a newer one, and
/// every active registration ends on the newest.
///
/// `@unchecked Sendable` because registrations hold weak references to arbitrary observers and
/// values of any `T`: `lock` protects `state` — every read and write of it happens inside
/// `lock.withLock`. Completions, lifetimes, cancellables and released values taken out of it are
/// called or dropped after unlocking.
final class LiveDataStorage<T>: @unchecked Sendable {
    /// Why a registration leaves.
    enum Departure {
        /// Its user removed it, its observer died, or the LiveData went away: end its ledger entry.
        case removed
        /// The lifetime it is bound to ended; the lifetime ends the entry (as cancelled).
        case lifetimeEnded
    }

    struct Registration {
        let key: UInt64
        weak var observer: AnyObject?
        let completion: @Sendable (T) -> Void
        let entry: LedgerEntry?
        weak var lifetime: Lifetime?
        var token: Lifetime.Token?
        /// The lifecycle subscription of a lifecycle-bound registration.
        var lifecycleToken: AnyCancellable?
        /// The version of the last value delivered; 0 before the first.
        var lastVersion: UInt64 = 0
        var isActive: Bool
    }

    private struct State {
        var value: T?
        var version: UInt64 = 0
        var registrations: [Registration] = []
        var nextKey: UInt64 = 0
        var dispatching = false
        var invalidated = false
    }

    private enum Step {
        case deliver(@Sendable (T) -> Void, T, LedgerEntry?, pruned: [Registration])
        case finished(pruned: [Registration])
    }

    private let lock = Mutex(())
    private var state = State()

    init(value: T?) {
        if let value {
            state.value = value
            state.version = 1
        }
    }

    deinit {
        // Nothing else can reach the state now; end what is left.
        let left = state.registrations
        state.registrations = []
        finish(left, .removed)
    }

    var value: T? { lock.withLock { _ in state.value } }

    var observerCount: Int { lock.withLock { _ in state.registrations.count { $0.observer != nil } } }

    // MARK: - Publishing

    func publish(_ value: T) {
        let (start, replaced) = lock.withLock { _ -> (Bool, T?) in
            let replaced = state.value
            state.value = value
            state.version += 1
            return (claimDispatch(), replaced)
        }
        _ = replaced  // the old value is released here, after unlocking
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
    /// order of registration, one completion at a time, outside the lock.
    private func dispatch() {
        var cursor: UInt64 = 0
        while true {
            let step = lock.withLock { _ -> Step in nextStep(cursor: &cursor) }
            switch step {
            case .finished(let pruned):
                finish(pruned, .removed)
                return
            case .deliver(let completion, let value, let entry, let pruned):
                finish(pruned, .removed)
                completion(value)
                entry?.delivered()
            }
        }
    }

    /// Under the lock: the next completion to call, pruning registrations whose observer died.
    private func nextStep(cursor: inout UInt64) -> Step {
        if state.invalidated {
            // A newer value (or a newly active registration) arrived: start over.
            state.invalidated = false
            cursor = 0
        }
        var pruned: [Registration] = []
        guard let value = state.value else {
            state.dispatching = false
            return .finished(pruned: pruned)
        }
        var index = state.registrations.firstIndex { $0.key >= cursor } ?? state.registrations.endIndex
        while index < state.registrations.endIndex {
            let registration = state.registrations[index]
            if registration.observer == nil {
                pruned.append(state.registrations.remove(at: index))
                continue
            }
            if registration.isActive && registration.lastVersion < state.version {
                state.registrations[index].lastVersion = state.version
                cursor = registration.key + 1
                return .deliver(registration.completion, value, registration.entry, pruned: pruned)
            }
            index += 1
        }
        state.dispatching = false
        return .finished(pruned: pruned)
    }

    // MARK: - Registering

    /// Adds a registration bound to `lifetime` (removed when it ends) and dispatches to it if it
    /// is active. Returns its key, or nil when the lifetime had already ended.
    @discardableResult
    func register(
        observer: AnyObject, lifetime: Lifetime, entry: LedgerEntry?, isActive: Bool,
        completion: @escaping @Sendable (T) -> Void
    ) -> UInt64? {
        let key = lock.withLock { _ -> UInt64 in
            let key = state.nextKey
            state.nextKey += 1
            state.registrations.append(
                Registration(
                    key: key, observer: observer, completion: completion, entry: entry, lifetime: lifetime,
                    isActive: isActive))
            return key
        }
        let token = lifetime.insert(
            .call { [weak self] in self?.detach(key: key, .lifetimeEnded) }, entry: entry)
        let present = lock.withLock { _ -> Bool in
            guard let index = index(of: key) else { return false }
            state.registrations[index].token = token
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
            state.registrations[index].lifecycleToken = token
            return true
        }
        if !stored { token.cancel() }
    }

    /// Marks registration `key` active or inactive; an activation delivers the newest value if it
    /// has not received it yet.
    func setActive(_ isActive: Bool, key: UInt64) {
        let outcome = lock.withLock { _ -> (entry: LedgerEntry?, dispatch: Bool)? in
            guard let index = index(of: key), state.registrations[index].isActive != isActive else {
                return nil
            }
            state.registrations[index].isActive = isActive
            return (state.registrations[index].entry, isActive && claimDispatch())
        }
        guard let outcome else { return }
        outcome.entry?.setPaused(!isActive)
        if outcome.dispatch { dispatch() }
    }

    private func requestDispatch() {
        if lock.withLock({ _ in claimDispatch() }) { dispatch() }
    }

    // MARK: - Removing

    func remove(observer: AnyObject) {
        let target = ObjectIdentifier(observer)
        let removed = lock.withLock { _ -> [Registration] in
            var removed: [Registration] = []
            state.registrations.removeAll { registration in
                // Dead observers go too: they would be pruned at the next dispatch anyway.
                guard let observed = registration.observer, ObjectIdentifier(observed) != target else {
                    removed.append(registration)
                    return true
                }
                return false
            }
            return removed
        }
        finish(removed, .removed)
    }

    private func detach(key: UInt64, _ departure: Departure) {
        let removed = lock.withLock { _ -> Registration? in
            guard let index = index(of: key) else { return nil }
            return state.registrations.remove(at: index)
        }
        if let removed { finish([removed], departure) }
    }

    /// After unlocking: cancels lifecycle subscriptions, takes actions out of lifetimes, ends
    /// entries; the completions are released when `removed` goes.
    private func finish(_ removed: [Registration], _ departure: Departure) {
        for registration in removed {
            registration.lifecycleToken?.cancel()
            guard departure == .removed else { continue }
            if let token = registration.token { registration.lifetime?.remove(token) }
            registration.entry?.end(.ended)
        }
    }

    private func index(of key: UInt64) -> Int? {
        state.registrations.firstIndex { $0.key == key }
    }
}
